/// The registry endpoint `apx call URL ... --save API.ENDPOINT` writes: the ad-hoc
/// endpoint with the values of this call as parameter defaults, so that
/// `apx call API.ENDPOINT` repeats the call and any value can be changed.
public enum SavedEndpoint {
  /// The endpoint to save.
  ///
  /// - Parameters:
  ///   - name: the endpoint name (after `API.`).
  ///   - endpoint: the ad-hoc endpoint, its body fields typed by `AdHocEndpoint.settleTypes`.
  ///   - values: the values bound for this call (they become defaults).
  ///   - headers: `Name:value` items; those `isSecret` names, and removals, are left out. The
  ///     endpoint's own headers are kept unless an item names them.
  ///   - isSecret: whether a header carries credentials (never written to a registry file).
  /// - Returns: the endpoint, the names of the headers left out, and the parameters whose
  ///   values were left out (`CredentialParams`: saved required and secret, without a default).
  public static func make(
    name: String, from endpoint: Endpoint, values: [(name: String, value: BoundValue)], headers: [HeaderField],
    isSecret: (String) -> Bool
  ) throws(APXError) -> (endpoint: Endpoint, leftOut: [String], valuesLeftOut: [String]) {
    try check(name: name)
    var saved = endpoint
    saved.name = name
    saved.params = []
    // -a, --bearer and --no-auth are about this call; the API's own auth stays in force.
    saved.auth = nil
    var leftOut: [String] = []
    // The endpoint's own headers (an ad-hoc call's default Accept) were sent unless an item
    // replaced or removed them: saved too, so that the saved call sends the same request.
    let named = Set(headers.map { $0.name.lowercased() })
    saved.headers = endpoint.headers.filter { !named.contains($0.name.lowercased()) }
    saved.headers += headers.filter { h in
      if h.value.isEmpty { return false }
      if isSecret(h.name) || h.value.contains("${") {
        leftOut.append(h.name)
        return false
      }
      return true
    }
    // Only an HTTP request has a URL whose path and query become parameters (gRPC has no route).
    let (path, query, pathParams) = parameterise(endpoint.path)
    if let rerouted = endpoint.options.rerouted(HTTPRoute(method: endpoint.method, path: path)) {
      saved.options = rerouted
      saved.params += pathParams
      saved.params += query.map { Param(name: $0.0, location: .query, defaultValue: .string($0.1)) }
    }
    var valuesLeftOut: [String] = []
    var grouped: [(String, [BoundValue])] = []
    for (name, value) in values {
      if let i = grouped.firstIndex(where: { $0.0 == name }) {
        grouped[i].1.append(value)
      } else {
        grouped.append((name, [value]))
      }
    }
    for (name, bound) in grouped {
      var param =
        endpoint.param(named: name) ?? Param(name: name, location: endpoint.kind.isHTTPRequest ? .body : .message)
      if case .file = bound[0] {
        param.required = true
      } else {
        let jsons = bound.compactMap { if case .json(let v) = $0 { v } else { nil } }
        param.defaultValue = jsons.count == 1 ? jsons[0] : .array(jsons)
        if endpoint.param(named: name) == nil || param.location == .body {
          param.type = ParamType.carrying(param.defaultValue ?? .null)
        }
        if jsons.count > 1 && param.location == .query { param.type = .array }
      }
      // An internal name (q.query for a second "q") is saved under a readable one, its wire name kept.
      if param.wireName != nil { param.name = param.name.replacing(".", with: "_") }
      guard !saved.params.contains(where: { $0.name == param.name }) else {
        throw APXError(.usage, "--save: the parameter \"\(param.name)\" appears twice", hint: "rename one of the items")
      }
      saved.params.append(param)
    }
    // A credential's value (`api_key==...`, `password=...`, `?access_token=` in the URL) stays
    // out of the file: the saved call asks for it, and masks it as a secret.
    for i in saved.params.indices
    where CredentialParams.isCredential(saved.params[i].wireName ?? saved.params[i].name)
      && saved.params[i].defaultValue != nil
    {
      saved.params[i].defaultValue = nil
      saved.params[i].required = true
      saved.params[i].secret = true
      valuesLeftOut.append(saved.params[i].name)
    }
    return (saved, leftOut, valuesLeftOut)
  }

  /// API and endpoint names: letters, digits, `_`, `-`, and dots between endpoint words.
  static func check(name: String) throws(APXError) {
    let ok =
      !name.isEmpty && !name.hasPrefix(".") && !name.hasSuffix(".") && !name.contains("..")
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
      }
    guard ok else {
      throw APXError(
        .usage, "--save: \"\(name)\" is not an endpoint name",
        hint: "use letters, digits, '_' and '-', words separated by dots: --save myapi.users.get")
    }
  }

  /// The path with its id-like segments made `{name}` parameters (defaulting to the segment),
  /// and its query split off into name/value pairs.
  ///
  /// A segment is id-like when it holds a digit and is not a version (`v2`, `v1.1`):
  /// `42`, `les_0001`, a UUID. It is named after the segment before it (`/users/42` ->
  /// `{user_id}`), or `id`.
  static func parameterise(_ pathAndQuery: String) -> (path: String, query: [(String, String)], params: [Param]) {
    var path = pathAndQuery
    var query: [(String, String)] = []
    if let q = pathAndQuery.firstIndex(of: "?") {
      path = String(pathAndQuery[..<q])
      for pair in pathAndQuery[pathAndQuery.index(after: q)...].split(separator: "&") where !pair.isEmpty {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        query.append(
          (PercentDecoding.decode(String(parts[0])), PercentDecoding.decode(parts.count > 1 ? String(parts[1]) : "")))
      }
    }
    var params: [Param] = []
    var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    var previous: String?
    for i in segments.indices {
      let s = segments[i]
      guard isIDLike(s) else {
        if !s.isEmpty { previous = s }
        continue
      }
      var base: String
      if let previous, CredentialParams.isCredentialSegment(Substring(s), after: Substring(previous)) {
        // `/api_key/VALUE`: named for the credential, so its value is left out as one.
        base = identifier(PercentDecoding.decode(previous))
      } else {
        base = (previous.map { singular(identifier($0)) } ?? "")
        base = base.isEmpty ? "id" : base + "_id"
      }
      var name = base
      var n = 2
      while params.contains(where: { $0.name == name }) {
        name = base + String(n)
        n += 1
      }
      params.append(
        Param(name: name, location: .path, required: true, defaultValue: .string(PercentDecoding.decode(s))))
      segments[i] = "{\(name)}"
    }
    return (segments.joined(separator: "/"), query, params)
  }

  static func isIDLike(_ s: String) -> Bool {
    guard s.contains(where: \.isNumber) else { return false }
    let lower = s.lowercased()
    if lower.hasPrefix("v"), lower.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) { return false }
    return true
  }

  /// `user-accounts` -> `user_accounts`.
  static func identifier(_ s: String) -> String {
    String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }

  static func singular(_ s: String) -> String {
    if s.hasSuffix("ies") { return String(s.dropLast(3)) + "y" }
    if s.hasSuffix("s") && !s.hasSuffix("ss") { return String(s.dropLast()) }
    return s
  }
}

/// `%41` -> `A`; malformed escapes are kept as written.
public enum PercentDecoding {
  public static func decode(_ text: String) -> String {
    guard text.contains("%") else { return text }
    var out: [UInt8] = []
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
        out.append(h << 4 | l)
        i += 3
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func hex(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
