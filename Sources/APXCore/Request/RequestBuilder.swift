/// Builds an `HTTPRequestPlan` for a REST or SSE endpoint from bound
/// parameters (the **resolve** step of load -> resolve -> execute -> format).
/// Pure: the caller has already read stdin and decided file paths.
public struct RequestBuilder {
  public var api: APIDefinition
  public var endpoint: Endpoint
  /// The base URL to use (environment, `--base-url` or `--demo`).
  public var baseURL: String

  public init(api: APIDefinition, endpoint: Endpoint, baseURL: String) {
    self.api = api
    self.endpoint = endpoint
    self.baseURL = baseURL
  }

  /// What the user passed for one call.
  public struct Input: Sendable {
    /// Parameters by name, in argument order.
    public var values: [(name: String, value: BoundValue)]
    /// `-d`: an explicit body (JSON bytes or a file), replacing params-built bodies.
    public var data: DataBody?
    /// `-H` headers, applied last.
    public var headers: [HeaderField]
    /// Multipart boundary to use (the caller makes it random).
    public var boundary: String

    public init(
      values: [(name: String, value: BoundValue)] = [], data: DataBody? = nil, headers: [HeaderField] = [],
      boundary: String = "apx-boundary"
    ) {
      self.values = values
      self.data = data
      self.headers = headers
      self.boundary = boundary
    }
  }

  /// An explicit `-d` body.
  public enum DataBody: Sendable, Hashable {
    case json([UInt8])
    case file(path: String)
    case stdin
  }

  /// Builds the plan; unknown, missing or ill-typed parameters are usage errors.
  public func build(_ input: Input) throws(APXError) -> HTTPRequestPlan {
    if BaseURLCheck.isWebSocket(baseURL), !endpoint.kind.capabilities.servedFromWebSocketURL {
      throw APXError(
        .usage,
        "\(api.name).\(endpoint.name) is a \(endpoint.kind.rawValue) endpoint, but its base URL is a WebSocket URL",
        hint: "give an http:// or https:// base URL (--base-url or the environment's base_url)")
    }
    var byName: [String: BoundValue] = [:]
    for (name, value) in input.values {
      guard endpoint.param(named: name) != nil else {
        throw APXError(
          .usage, "\(api.name).\(endpoint.name) has no parameter \"\(name)\"",
          hint: Suggestions.hint(for: name, in: endpoint.params.map(\.name))
            ?? (endpoint.params.isEmpty
              ? "this endpoint takes no parameters"
              : "parameters: \(endpoint.params.map(\.name).joined(separator: ", "))"))
      }
      if let existing = byName[name], case .json(let a) = existing, case .json(let b) = value {
        // Repeating a parameter collects its values (query arrays: tags=a tags=b).
        byName[name] = .json(.array((a.arrayValue ?? [a]) + [b]))
      } else {
        byName[name] = value
      }
    }
    for param in endpoint.params where byName[param.name] == nil {
      if let d = param.defaultValue { byName[param.name] = .json(d) }
    }
    let missing = endpoint.params.filter { $0.required && byName[$0.name] == nil }
      .filter { !($0.location == .body && input.data != nil) }
    if !missing.isEmpty {
      let names = missing.map(\.name)
      throw APXError(
        .usage,
        "missing required parameter\(names.count > 1 ? "s" : "") \(names.map { "\"\($0)\"" }.joined(separator: ", ")) for \(api.name).\(endpoint.name)",
        hint: "usage: \(CallExample.line(api: api, endpoint: endpoint))")
    }

    var pathValues: [String: String] = [:]
    var query: [(String, String)] = []
    var cookies: [(String, String)] = []
    var headers = api.headers
    for h in endpoint.headers {
      headers.removeAll { $0.name.lowercased() == h.name.lowercased() }
      headers.append(h)
    }
    // A registry header filled from the environment may hold a credential: keep it to its origin.
    var credentialHeaders = Set(headers.filter { Template.mayContainReferences($0.value) }.map { $0.name.lowercased() })
    var bodyFields: [JSONMember] = []
    var formFields: [(String, String)] = []
    var parts: [MultipartPart] = []
    var rawFile: (path: String, contentType: String)?
    var secrets: [String] = []

    for param in endpoint.params {
      guard let bound = byName[param.name] else { continue }
      let wire = param.sentName
      switch bound {
      case .file(let path):
        switch param.location {
        case .body where param.type == .file || endpoint.bodyEncoding == .raw:
          rawFile = (path, param.contentType ?? "application/octet-stream")
        case .multipart, .form, .body:
          parts.append(
            .file(
              name: wire, path: path, filename: Self.filename(path),
              contentType: param.contentType ?? "application/octet-stream"))
        default:
          throw APXError(
            .usage, "\(param.name) is a \(param.location.rawValue) parameter and cannot take a file",
            hint: "pass its value as \(param.name)=VALUE")
        }
      case .json(let raw):
        let value = try ParamCoercion.coerce(raw, to: param)
        // The `--save` rule: a credential's name makes it secret wherever the request is shown.
        if param.secret || CredentialParams.isCredential(wire), let s = Self.text(value) { secrets.append(s) }
        switch param.location {
        case .path:
          if case .null = value {
            throw APXError(.usage, "path parameter \(param.name) must have a value, got null")
          }
          pathValues[param.name] = try ParamSerializer.path(param, value)
        case .query:
          query += try ParamSerializer.query(param, value)
        case .cookie:
          cookies += try ParamSerializer.query(param, value)
        case .header:
          let s = try ParamSerializer.header(param, value)
          headers.removeAll { $0.name.lowercased() == wire.lowercased() }
          headers.append(HeaderField(wire, s))
          if param.secret { credentialHeaders.insert(wire.lowercased()) }
        case .body, .message:
          bodyFields.append(JSONMember(wire, value))
        case .form where param.style != nil || param.explode != nil:
          formFields += try ParamSerializer.form(param, value)
        case .multipart where param.style != nil || param.explode != nil:
          parts += try ParamSerializer.form(param, value).map { MultipartPart.field(name: $0.0, value: $0.1) }
        case .multipart where param.contentType != nil && param.type != .file:
          // OpenAPI's encoding contentType: the part's type; a JSON part holds the whole value.
          let type = param.contentType ?? ""
          if Self.isJSON(type) {
            parts.append(.field(name: wire, value: value.compactJSON, contentType: type))
          } else {
            for item in value.arrayValue ?? [value] {
              parts.append(.field(name: wire, value: Self.text(item) ?? item.compactJSON, contentType: type))
            }
          }
        case .form:
          // Without a style, an array repeats the field and an object goes as JSON text.
          for item in value.arrayValue ?? [value] {
            formFields.append((wire, Self.text(item) ?? item.compactJSON))
          }
        case .multipart:
          for item in value.arrayValue ?? [value] {
            parts.append(.field(name: wire, value: Self.text(item) ?? item.compactJSON))
          }
        }
      }
    }

    // An api_key auth "in": "path" fills its {name} segment after secrets are resolved.
    let authPlaceholder = (endpoint.auth ?? api.auth)?.pathPlaceholder
    let path = try PathTemplate(endpoint.path).expand(
      pathValues, keeping: authPlaceholder.map { [$0] } ?? [], encoded: true)
    if !cookies.isEmpty {
      // Cookie values are sent as given (RFC 6265 has no percent-encoding); names and values joined by "; ".
      let text = cookies.map { $0.0 + "=" + $0.1 }.joined(separator: "; ")
      if let i = headers.firstIndex(where: { $0.name.lowercased() == "cookie" }) {
        headers[i].value += "; " + text
      } else {
        headers.append(HeaderField("Cookie", text))
      }
    }
    var url = Self.joinURL(baseURL, path)
    if !query.isEmpty {
      let encoded = query.map {
        PercentEncoding.encode($0.0, allowed: .queryComponent) + "="
          + PercentEncoding.encode($0.1, allowed: .queryComponent)
      }.joined(separator: "&")
      url += (url.contains("?") ? "&" : "?") + encoded
    }

    var body: RequestBody = .none
    if let data = input.data {
      let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? "application/json"
      switch data {
      case .json(let bytes): body = .bytes(bytes, contentType: type)
      case .file(let path): body = .file(path: path, contentType: type)
      case .stdin: body = .stdin(contentType: type)
      }
    } else if let rawFile {
      body = .file(path: rawFile.path, contentType: rawFile.contentType)
    } else if !parts.isEmpty || endpoint.bodyEncoding == .multipart {
      let fields = Self.fieldTexts(bodyFields).map { MultipartPart.field(name: $0.0, value: $0.1) }
      let formParts = formFields.map { MultipartPart.field(name: $0.0, value: $0.1) }
      body = .multipart(fields + formParts + parts, boundary: input.boundary)
    } else if !formFields.isEmpty || endpoint.bodyEncoding == .form {
      let fields = formFields + Self.fieldTexts(bodyFields)
      let encoded = fields.map {
        PercentEncoding.encode($0.0, allowed: .queryComponent) + "="
          + PercentEncoding.encode($0.1, allowed: .queryComponent)
      }.joined(separator: "&")
      body = .bytes(Array(encoded.utf8), contentType: "application/x-www-form-urlencoded")
    } else if !bodyFields.isEmpty {
      body = .bytes(Array(JSONValue.object(bodyFields).compactJSON.utf8), contentType: "application/json")
    }
    if let type = body.contentType, !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
      headers.append(HeaderField("Content-Type", type))
    }
    for h in input.headers {
      headers.removeAll { $0.name.lowercased() == h.name.lowercased() }
      if !h.value.isEmpty { headers.append(h) }  // `-H 'Name:'` removes a header, as in curl
    }
    for secret in CredentialParams.values(inURL: url) where !secrets.contains(secret) { secrets.append(secret) }
    return HTTPRequestPlan(
      method: endpoint.method, url: url, headers: headers, body: body, secrets: secrets,
      credentialHeaders: credentialHeaders)
  }

  /// Body fields sent as form or multipart fields: an array repeats its field (`expand[]=a
  /// expand[]=b`, as HTTPie's `--form` sends a repeated item), anything else is one field, an
  /// object as JSON text.
  static func fieldTexts(_ members: [JSONMember]) -> [(String, String)] {
    members.flatMap { member in
      (member.value.arrayValue ?? [member.value]).map { (member.key, text($0) ?? $0.compactJSON) }
    }
  }

  /// Scalars as text (strings unquoted); nil for arrays, objects and null.
  static func text(_ value: JSONValue) -> String? {
    switch value {
    case .string(let s): s
    case .number(let n): n
    case .bool(let b): b ? "true" : "false"
    default: nil
    }
  }

  /// `application/json`, `application/x+json`, with or without parameters.
  static func isJSON(_ mediaType: String) -> Bool {
    let base = MediaType.essence(mediaType)
    return base == "application/json" || base.hasSuffix("+json")
  }

  static func filename(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }

  /// Joins a base URL (which may carry a path prefix) and an endpoint path with exactly one slash.
  public static func joinURL(_ base: String, _ path: String) -> String {
    if path.isEmpty { return base }
    if path.hasPrefix("http://") || path.hasPrefix("https://") { return path }
    let b = base.hasSuffix("/") ? String(base.dropLast()) : base
    return path.hasPrefix("/") ? b + path : b + "/" + path
  }
}

/// An example `apx call` line for an endpoint, shown by `describe` and in errors.
public enum CallExample {
  /// `apx call books.imports.create csv=@file.csv`
  public static func line(api: APIDefinition, endpoint: Endpoint) -> String {
    var words = ["apx call \(api.name).\(endpoint.name)"]
    for p in endpoint.params where p.required && p.defaultValue == nil {
      words.append(p.name + placeholder(p))
    }
    for p in endpoint.params where !(p.required && p.defaultValue == nil) {
      words.append("[" + p.name + placeholder(p) + "]")
    }
    return words.joined(separator: " ")
  }

  static func placeholder(_ p: Param) -> String {
    switch p.type {
    case .file: "=@\(p.name).\(p.contentType?.split(separator: "/").last.map(String.init) ?? "bin")"
    case .integer: ":=1"
    case .number: ":=1.5"
    case .boolean: ":=true"
    case .json: ":='{}'"
    case .array: ":='[\"a\"]'"
    case .string: "=" + p.name.uppercased()
    }
  }
}
