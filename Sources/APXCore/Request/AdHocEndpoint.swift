/// An ad-hoc call's endpoint, made on the spot from a URL and request items,
/// so that `apx call URL items...` goes down the same pipeline as a registry call.
public struct AdHocEndpoint: Sendable {
  /// The API the call belongs to: a registry API whose base URL the URL falls under, or a bare one.
  public var api: APIDefinition
  public var endpoint: Endpoint
  /// The base URL the endpoint's path is relative to.
  public var baseURL: String
  /// The environment of `api` the URL matched (empty for a bare API).
  public var environmentName: String
  /// Arguments to bind, from the items.
  public var arguments: [ParamArgument]
  /// Headers from `Name:value` items.
  public var headers: [HeaderField]

  /// The endpoint for `method url items`, under `match` when the URL falls under one of its
  /// base URLs, else under an API named after the host.
  ///
  /// - Parameters:
  ///   - method: the METHOD argument; nil means GET, or POST when there is a body.
  ///   - hasData: a `-d` body is given.
  ///   - form: `--form`: body fields go as a form (multipart when there are file parts).
  public static func make(
    method: String?, url: AdHocURL, items: [RequestItem], hasData: Bool, form: Bool, match: BaseURLMatch? = nil
  ) throws(APXError) -> AdHocEndpoint {
    if let method {
      guard !method.isEmpty, method.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
        throw APXError(
          .usage, "\"\(method)\" is not an HTTP method",
          hint: "write it in capitals: GET, POST, PUT, PATCH, DELETE, ...")
      }
    }
    let hasBody =
      hasData
      || items.contains {
        switch $0 {
        case .param, .filePart: true
        case .header, .query: false
        }
      }
    if hasData,
      let item = items.first(where: { if case .header = $0 { false } else if case .query = $0 { false } else { true } })
    {
      throw APXError(
        .usage, "-d gives the whole body, so body items cannot be added to it (\(item.text))",
        hint: "put the field in the -d JSON, or leave -d out and use only items")
    }
    let path: String
    let api: APIDefinition
    let baseURL: String
    let environmentName: String
    if let match {
      api = match.api
      baseURL = match.baseURL
      environmentName = match.environmentName
      let basePath = (try? AdHocURL(parsing: match.baseURL)).map { Self.trimmed($0.path) } ?? ""
      path = String(url.pathAndQuery.dropFirst(basePath.count))
    } else {
      api = APIDefinition(
        name: url.host, environments: [NamedEnvironment(name: "adhoc", baseURL: url.origin)],
        defaultEnvironment: "adhoc", sourceFile: "")
      baseURL = url.origin
      environmentName = "adhoc"
      path = url.pathAndQuery
    }
    let verb = method ?? (hasBody ? "POST" : "GET")
    var endpoint = Endpoint(
      name: "\(verb) \(url.path)", options: .rest(HTTPRoute(method: verb, path: path.isEmpty ? "/" : path)),
      bodyEncoding: form ? .form : nil)
    if !api.headers.contains(where: { $0.name.lowercased() == "accept" }) {
      endpoint.headers = [HeaderField("Accept", defaultAccept)]
    }
    let applied = try RequestItems.apply(items, to: &endpoint, declareBody: true)
    if endpoint.params.contains(where: { $0.type == .file }) { endpoint.bodyEncoding = .multipart }
    return AdHocEndpoint(
      api: api, endpoint: endpoint, baseURL: baseURL, environmentName: environmentName,
      arguments: applied.arguments, headers: applied.headers)
  }

  /// The `Accept` of an ad-hoc HTTP call (a `-H Accept:` or an API's own header wins):
  /// JSON first, as HTTPie and xh ask, then an event stream, which strict servers send
  /// only to a client that lists it (the answer is then followed as events), then anything.
  public static let defaultAccept = "application/json, text/event-stream;q=0.9, */*;q=0.5"

  /// Gives each body field the type of the value bound to it, so that values pass
  /// through unchanged (a JSON `"3"` stays a string, `3` a number).
  public static func settleTypes(_ endpoint: inout Endpoint, values: [(name: String, value: BoundValue)]) {
    var seen: [String: Int] = [:]
    for (name, _) in values { seen[name, default: 0] += 1 }
    for (name, bound) in values {
      guard let index = endpoint.params.firstIndex(where: { $0.name == name }),
        endpoint.params[index].location == .body, case .json(let value) = bound
      else { continue }
      let type = ParamType.carrying(value)
      endpoint.params[index].type = seen[name, default: 0] > 1 ? .array : type
    }
  }

  static func trimmed(_ base: String) -> String { base.hasSuffix("/") ? String(base.dropLast()) : base }
}

extension ParamType {
  /// The type whose coercion keeps `value` exactly as it is (a JSON `"3"` stays a string).
  public static func carrying(_ value: JSONValue) -> ParamType {
    switch value {
    case .string: .string
    case .number: .number
    case .bool: .boolean
    case .array: .array
    case .object, .null: .json
    }
  }
}

/// A registry API whose environment's base URL an ad-hoc URL falls under.
public struct BaseURLMatch: Sendable {
  public var api: APIDefinition
  public var environmentName: String
  public var baseURL: String

  public init(api: APIDefinition, environmentName: String, baseURL: String) {
    self.api = api
    self.environmentName = environmentName
    self.baseURL = baseURL
  }

  /// Whether `url` falls under `baseURL`: the same origin (scheme, host, port) and a path that is
  /// the base's path or below it (`/api/v2` covers `/api/v2` and `/api/v2/x`, not `/api/v20`).
  public static func covers(baseURL: String, url: AdHocURL) -> Bool {
    guard let base = try? AdHocURL(parsing: baseURL) else { return false }
    guard base.scheme == url.scheme, base.host.lowercased() == url.host.lowercased(),
      base.effectivePort == url.effectivePort
    else { return false }
    let basePath = AdHocEndpoint.trimmed(base.path)
    let path = url.path
    return basePath.isEmpty || path == basePath || path.hasPrefix(basePath + "/")
  }
}

extension AdHocURL {
  /// The port, or the scheme's default.
  var effectivePort: Int {
    port ?? (scheme == "https" || scheme == "grpcs" || scheme == "wss" ? 443 : 80)
  }
}

extension RequestItem {
  /// The item as typed (near enough for messages).
  var text: String {
    switch self {
    case .header(let n, let v): "\(n):\(v)"
    case .query(let n, let v): "\(n)==\(v)"
    case .filePart(let n, let p): "\(n)@\(p)"
    case .param(let a): (a.nested?.source ?? a.name) + "=…"
    }
  }
}
