/// Turns the bytes of one registry file into an `APIDefinition`, or every
/// problem in it at once (file:line:column, JSON path, hint).
public enum RegistryLoader {
  static let topKeys = [
    "$schema", "api", "title", "description", "environments", "default_environment", "headers", "auth", "retry",
    "tls", "schemas", "endpoints",
  ]
  /// Every key some kind's endpoint may have (the capability table's), for the unknown-key check.
  static let endpointKeys = knownEndpointKeys.sorted()
  static let knownEndpointKeys = EndpointKind.allRegistryKeys
  static let paramKeys = [
    "in", "type", "required", "default", "description", "content_type", "secret", "enum", "name", "style", "explode",
    "deprecated", "format", "minimum", "maximum", "min_length", "max_length", "pattern",
  ]
  static let httpMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

  /// Whether `text` holds a `${`: a template, checked once resolved. As bytes: the
  /// `_StringProcessing` search behind `String.contains(_:)` cost 0.6% of a registry gRPC call's
  /// CPU samples at its first use.
  static func hasTemplate(_ text: String) -> Bool {
    var dollar = false
    for byte in text.utf8 {
      if dollar && byte == UInt8(ascii: "{") { return true }
      dollar = byte == UInt8(ascii: "$")
    }
    return false
  }

  /// Loads one registry file. `file` names it in messages.
  public static func load(_ bytes: [UInt8], file: String) throws(APXErrors) -> APIDefinition {
    var reader: DocumentReader
    do {
      reader = try DocumentReader.parse(bytes, file: file)
    } catch {
      throw APXErrors([error])
    }
    let definition = decode(&reader)
    if !reader.errors.isEmpty { throw APXErrors(reader.errors) }
    guard let definition else {
      throw APXErrors([APXError(.invalidDefinition, "not a registry file", file: file)])
    }
    return definition
  }

  /// Loads what a call of `endpoint` needs, and checks only that: the whole file's JSON syntax,
  /// its API-wide keys, its endpoint names (duplicates), and the endpoint itself with the one its
  /// SSE fallback polls. Other endpoints are scanned, not decoded (`apx validate` checks them), so
  /// a call through a file of hundreds of endpoints costs about what a one-endpoint file costs.
  /// The endpoint need not exist: `endpointNames` lists what does, for the caller's message.
  /// With no endpoint (an ad-hoc call that borrows the API's settings), none is decoded.
  public static func load(_ bytes: [UInt8], file: String, endpoint: String?) throws(APXErrors) -> APIDefinition {
    var kept: Set<String> = endpoint.map { [$0] } ?? []
    // Each pass may add the endpoint a fallback polls; polls are REST, so two passes suffice,
    // and the set only grows, so the loop ends.
    while true {
      let value: JSONValue
      do {
        // `schemas` only serve `apx mock`, which loads whole files: a call skips them too.
        value = try JSONParser.parse(bytes, skimming: ["endpoints", "schemas"], keeping: kept)
      } catch {
        return try located(bytes, file: file, kept: kept)
      }
      // Without locations: parsing them is most of the cost. Errors are rare, and then the
      // file is parsed again with them for file:line messages.
      var reader = DocumentReader(document: JSONDocument(value: value, locations: [:]), file: file)
      guard let api = decode(&reader, only: kept), reader.errors.isEmpty else {
        return try located(bytes, file: file, kept: kept)
      }
      let needed = kept.union(api.endpoints.compactMap { fallbackTarget(of: $0, in: api) })
      if needed == kept { return api }
      kept = needed
    }
  }

  /// The scoped load again, with every value's location, for the messages.
  private static func located(_ bytes: [UInt8], file: String, kept: Set<String>) throws(APXErrors) -> APIDefinition {
    var reader: DocumentReader
    do {
      reader = try DocumentReader.parse(bytes, file: file)
    } catch {
      throw APXErrors([error])
    }
    let definition = decode(&reader, only: kept)
    if !reader.errors.isEmpty { throw APXErrors(reader.errors) }
    guard let definition else {
      throw APXErrors([APXError(.invalidDefinition, "not a registry file", file: file)])
    }
    return definition
  }

  /// The name, in this file, of the endpoint `e`'s SSE fallback polls (`ENDPOINT` or `API.ENDPOINT`).
  static func fallbackTarget(of e: Endpoint, in api: APIDefinition) -> String? {
    guard let poll = e.sse?.fallback?.poll else { return nil }
    let names = api.endpointNames
    if names.contains(poll) { return poll }
    if poll.hasPrefix(api.name + ".") {
      let local = String(poll.dropFirst(api.name.count + 1))
      if names.contains(local) { return local }
    }
    return nil
  }

  /// Decodes the file; with `only`, just the API-wide keys and those endpoints (every name is still recorded).
  static func decode(_ r: inout DocumentReader, only: Set<String>? = nil) -> APIDefinition? {
    let root: [JSONPathComponent] = []
    guard let top = r.object(r.document.value, at: root, allowed: topKeys) else { return nil }
    let schemaReference = r.optionalString(top, "$schema", at: root)
    let apiValue = top.first(where: { $0.key == "api" })?.value
    let name = r.requiredString(top, "api", at: root) ?? ""
    if name.isEmpty, apiValue?.stringValue != nil {
      r.fail([.key("api")], "the API name is empty", hint: "name it, e.g. \"api\": \"books\"")
    } else if !name.isEmpty, !isIdentifier(name) {
      r.fail(
        [.key("api")], "the API name \"\(name)\" may hold only letters, digits, '-' and '_'",
        hint: "it is what users type before the dot in `apx call \(name).ENDPOINT`")
    }
    var api = APIDefinition(name: name, sourceFile: r.file)
    api.title = r.optionalString(top, "title", at: root)
    api.description = r.optionalString(top, "description", at: root)
    api.schemaReference = schemaReference
    if let envValue = top.first(where: { $0.key == "environments" })?.value,
      let envs = r.object(envValue, at: [.key("environments")])
    {
      for env in envs {
        let p: [JSONPathComponent] = [.key("environments"), .key(env.key)]
        var envValue = env.value
        // Refused with advice rather than as an unknown key: it is the name one reaches for.
        if case .object(let members) = env.value, members.contains(where: { $0.key == "variables" }) {
          r.fail(
            p + [.key("variables")], "an environment has no \"variables\"",
            hint: "an environment holds base_url, description and tls; a value that changes per environment "
              + "comes from the process environment: ${env:NAME} in base_url, headers or auth")
          envValue = .object(members.filter { $0.key != "variables" })
        }
        guard let fields = r.object(envValue, at: p, allowed: ["base_url", "description", "tls"]) else { continue }
        let description = r.optionalString(fields, "description", at: p)
        guard let base = r.requiredString(fields, "base_url", at: p) else { continue }
        if !isSupportedBaseURL(base) {
          r.fail(
            p + [.key("base_url")],
            "base_url \(JSONValue.string(URLUserInfo.masked(base)).compactJSON) must start with http://, https://, grpc://, grpcs://, ws:// or wss://"
          )
        } else if !hasTemplate(base), let problem = BaseURLCheck.problem(base) {
          // Templated URLs are checked once resolved, at call time.
          r.fail(p + [.key("base_url")], "base_url \(problem)")
        } else if URLUserInfo.isPresent(in: base) {
          // `http://admin:${env:PASSWORD}@host` is refused as a literal password is.
          r.fail(
            p + [.key("base_url")],
            "base_url \(JSONValue.string(URLUserInfo.masked(base)).compactJSON) carries a user name or password",
            hint: "give credentials with the API's auth (\"auth\": {\"type\": \"basic\", ...})")
        }
        let tls = fields.first { $0.key == "tls" }.flatMap {
          TLSFilesDecoder.decode($0.value, at: p + [.key("tls")], &r)
        }
        api.environments.append(NamedEnvironment(name: env.key, baseURL: base, description: description, tls: tls))
      }
    }
    api.defaultEnvironment = r.optionalString(top, "default_environment", at: root)
    if let d = api.defaultEnvironment, api.environment(named: d) == nil {
      r.fail(
        [.key("default_environment")], "no environment named \"\(d)\"",
        hint: Suggestions.hint(for: d, in: api.environments.map(\.name)) ?? "define it under \"environments\"")
    }
    api.headers = r.optionalHeaderMap(top, "headers", at: root) ?? []
    if let value = top.first(where: { $0.key == "auth" })?.value {
      api.auth = AuthConfigDecoder.decode(value, at: [.key("auth")], &r)
    }
    if let value = top.first(where: { $0.key == "retry" })?.value {
      api.retry = RetryConfigDecoder.decode(value, at: [.key("retry")], &r)
    }
    if only == nil, let value = top.first(where: { $0.key == "schemas" })?.value {
      api.schemas = decodeSchemas(value, &r)
    }
    if let value = top.first(where: { $0.key == "tls" })?.value {
      api.tls = TLSFilesDecoder.decode(value, at: [.key("tls")], &r)
    }
    if let value = top.first(where: { $0.key == "endpoints" })?.value,
      let entries = r.object(value, at: [.key("endpoints")])
    {
      var seen = Set<String>()
      var names: [String] = []
      for entry in entries {
        let p: [JSONPathComponent] = [.key("endpoints"), .key(entry.key)]
        if !seen.insert(entry.key).inserted {
          r.fail(p, "duplicate endpoint \"\(entry.key)\"")
        } else {
          names.append(entry.key)
        }
        if let only, !only.contains(entry.key) { continue }
        if let endpoint = decodeEndpoint(entry.key, entry.value, apiAuth: api.auth, at: p, &r) {
          api.endpoints.append(endpoint)
        }
      }
      if only != nil { api.partialLoadNames = names }
    } else if !top.contains(where: { $0.key == "endpoints" }) {
      r.fail(root, "missing required key \"endpoints\"")
    }
    checkFallbacks(api, &r)
    checkWebSocketBaseURLs(api, &r)
    if only == nil { checkSchemaReferences(api, &r) }
    return api
  }

  /// Every `$ref` in `schemas` and in endpoints' response schemas names an entry of `schemas`.
  static func checkSchemaReferences(_ api: APIDefinition, _ r: inout DocumentReader) {
    for m in api.schemas {
      checkReferences(m.value, schemas: api.schemas, at: [.key("schemas"), .key(m.key)], &r)
    }
    for e in api.endpoints {
      if let schema = e.bodySchema {
        checkReferences(schema, schemas: api.schemas, at: [.key("endpoints"), .key(e.name), .key("body_schema")], &r)
      }
      for (i, accepted) in e.accepts.enumerated() {
        guard let schema = accepted.schema else { continue }
        checkReferences(
          schema, schemas: api.schemas, at: [.key("endpoints"), .key(e.name), .key("accepts"), .index(i)], &r)
      }
      if let schema = e.websocket?.serverMessages?.schema {
        checkReferences(
          schema, schemas: api.schemas, at: [.key("endpoints"), .key(e.name), .key("server_messages"), .key("schema")],
          &r)
      }
      for response in e.responses {
        guard let schema = response.schema else { continue }
        checkReferences(
          schema, schemas: api.schemas,
          at: [.key("endpoints"), .key(e.name), .key("responses"), .key(response.status), .key("schema")], &r)
      }
    }
  }

  static func decodeEndpoint(
    _ name: String, _ value: JSONValue, apiAuth: AuthConfig? = nil, at p: [JSONPathComponent],
    _ r: inout DocumentReader
  ) -> Endpoint? {
    guard let f = r.object(value, at: p, allowed: endpointKeys) else { return nil }
    guard let kindText = r.requiredString(f, "kind", at: p) else { return nil }
    guard let kind = EndpointKind(rawValue: kindText) else {
      r.fail(
        p + [.key("kind")], "unknown kind \"\(kindText)\"",
        hint: Suggestions.hint(for: kindText, in: EndpointKind.allCases.map(\.rawValue))
          ?? "use one of rest, sse, grpc, jsonrpc, websocket, graphql")
      return nil
    }
    // A key another kind's endpoint has would otherwise be silently ignored.
    for member in f where knownEndpointKeys.contains(member.key) && !kind.accepts(registryKey: member.key) {
      r.fail(
        p + [.key(member.key)], kind.misplaced(registryKey: member.key),
        hint: kind.capabilities.defaultRoute == nil && (member.key == "path" || member.key == "body")
          ? "a gRPC endpoint is named by \"service\" and \"method\"; its params are message fields" : nil)
    }
    let capabilities = kind.capabilities
    var route = capabilities.defaultRoute ?? HTTPRoute()
    var grpcMethod = ""
    if let method = r.optionalString(f, "method", at: p) {
      if capabilities.defaultRoute == nil {
        grpcMethod = method
      } else if httpMethods.contains(method.uppercased()) {
        route.method = method.uppercased()
      } else {
        r.fail(
          p + [.key("method")], "unknown HTTP method \"\(method)\"",
          hint: "use one of \(httpMethods.joined(separator: ", "))")
      }
    }
    if capabilities.defaultRoute != nil { route.path = r.optionalString(f, "path", at: p) ?? route.path }
    // Each kind's options are decoded below; these hold its kind and route until then.
    let undecided: EndpointOptions =
      switch kind {
      case .rest: .rest(route)
      case .sse: .sse(route, SSEOptions())
      case .grpc: .grpc(GRPCOptions(service: "", method: grpcMethod, schema: .reflection))
      case .jsonrpc: .jsonrpc(route, JSONRPCOptions(rpcMethod: ""))
      case .websocket: .websocket(route, WebSocketOptions())
      case .graphql: .graphql(route, GraphQLOptions(document: ""))
      }
    var e = Endpoint(name: name, options: undecided, location: r.document.location(of: p))
    e.description = r.optionalString(f, "description", at: p)
    switch kind {
    case .rest, .sse, .jsonrpc, .websocket, .graphql:
      if capabilities.requiresPath, f.first(where: { $0.key == "path" }) == nil {
        r.fail(p, "missing required key \"path\"", hint: "e.g. \"path\": \"/api/v1/items/{id}\"")
      }
      if kind == .jsonrpc, let options = decodeJSONRPC(f, at: p, &r) { e.options = .jsonrpc(route, options) }
      if kind == .graphql {
        let document = r.requiredString(f, "query", at: p) ?? ""
        var options = GraphQLOptions(document: document, operationName: r.optionalString(f, "operation_name", at: p))
        if let transport = r.optionalString(f, "transport", at: p) {
          options.transport = GraphQLStreamTransport(rawValue: transport)
          if options.transport == nil {
            r.fail(
              p + [.key("transport")], "unknown transport \"\(transport)\"",
              hint: "a subscription goes over \"ws\" (graphql-transport-ws, the default) or \"sse\"")
          }
        }
        if let value = f.first(where: { $0.key == "reconnect" })?.value {
          SSEOptionsDecoder.decodeReconnect(value, at: p + [.key("reconnect")], into: &options.reconnect, &r)
        }
        e.options = .graphql(route, options)
      }
    case .grpc:
      let service = r.requiredString(f, "service", at: p) ?? ""
      if f.first(where: { $0.key == "method" }) == nil { r.fail(p, "missing required key \"method\"") }
      let schema = decodeSchema(f, at: p, &r)
      // Read from each response message, as SSE progress is from each event's data.
      let progress = f.first(where: { $0.key == "progress" }).flatMap {
        SSEOptionsDecoder.decodeProgress($0.value, at: p + [.key("progress")], &r)
      }
      e.options = .grpc(
        GRPCOptions(
          service: service, method: grpcMethod, schema: schema,
          retryableCodes: RetryConfigDecoder.grpcCodeNames(f, "retry_codes", at: p, &r), progress: progress))
    }
    if let paramsValue = f.first(where: { $0.key == "params" })?.value,
      let params = r.object(paramsValue, at: p + [.key("params")])
    {
      for param in params {
        if let decoded = decodeParam(param.key, param.value, kind: kind, at: p + [.key("params"), .key(param.key)], &r)
        {
          e.params.append(decoded)
        }
      }
    }
    e.headers = r.optionalHeaderMap(f, "headers", at: p) ?? []
    if let statuses = f.first(where: { $0.key == "expect_status" })?.value {
      let sp = p + [.key("expect_status")]
      if case .array(let items) = statuses {
        e.expectStatus = items.enumerated().compactMap {
          r.int($0.element, at: sp + [.index($0.offset)], range: 100...599)
        }
      } else if let single = r.int(statuses, at: sp, range: 100...599) {
        e.expectStatus = [single]
      }
    }
    if let body = r.optionalString(f, "body", at: p) {
      if let encoding = BodyEncoding(rawValue: body) {
        e.bodyEncoding = encoding
      } else {
        r.fail(p + [.key("body")], "unknown body encoding \"\(body)\"", hint: "use json, form, multipart or raw")
      }
    }
    e.bodyExample = f.first(where: { $0.key == "body_example" })?.value
    e.bodySchema = optionalSchema(f, "body_schema", at: p, &r)
    if let accepts = f.first(where: { $0.key == "accepts" })?.value, case .http(let route, var o) = e.options {
      o.accepts = decodeAccepts(accepts, at: p + [.key("accepts")], &r)
      e.options = .http(route, o)
    }
    if let responses = f.first(where: { $0.key == "responses" })?.value {
      e.responses = decodeResponses(responses, at: p + [.key("responses")], &r)
    }
    if let auth = f.first(where: { $0.key == "auth" })?.value {
      e.auth = AuthConfigDecoder.decode(auth, at: p + [.key("auth")], &r)
    }
    checkPathPlaceholders(e, authPlaceholder: (e.auth ?? apiAuth)?.pathPlaceholder, at: p, &r)
    if (e.auth ?? apiAuth)?.subprotocolPrefix != nil, !e.kind.accepts(registryKey: "subprotocols") {
      r.fail(
        e.auth == nil ? p : p + [.key("auth")],
        "the auth is carried in a WebSocket subprotocol (\"in\": \"subprotocol\"), but this is a \(e.kind.rawValue) endpoint",
        hint:
          "give the websocket endpoint its own auth with \"in\": \"subprotocol\", and the API the auth its other endpoints use"
      )
    }
    if let retry = f.first(where: { $0.key == "retry" })?.value {
      e.retry = RetryConfigDecoder.decode(retry, at: p + [.key("retry")], &r)
    }
    e.idempotent = r.optionalBool(f, "idempotent", at: p) ?? false
    e.idempotencyKey = r.optionalBool(f, "idempotency_key", at: p) ?? false
    e.timeout = r.optionalNumber(f, "timeout", at: p, range: 0.001...86_400)
    if kind == .sse {
      e.options = .sse(route, SSEOptionsDecoder.decode(f, at: p, &r), accepts: e.accepts)
    } else if kind == .websocket {
      e.options = .websocket(route, WebSocketOptionsDecoder.decode(f, at: p, &r))
    }
    if let pagination = f.first(where: { $0.key == "pagination" })?.value, kind.accepts(registryKey: "pagination") {
      let pages = decodePagination(pagination, endpoint: e, at: p + [.key("pagination")], &r)
      e.options = e.options.paged(pages) ?? e.options
    }
    checkBody(e, at: p, &r)
    return e
  }

  static func decodeSchema(_ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader) -> SchemaSource {
    guard let value = f.first(where: { $0.key == "schema" })?.value else { return .reflection }
    let sp = p + [.key("schema")]
    guard let s = r.object(value, at: sp, allowed: ["reflection", "protoset", "proto", "import_paths"]) else {
      return .reflection
    }
    // Every key is type-checked, and exactly one source may be chosen: none is silently ignored.
    let reflection = r.optionalBool(s, "reflection", at: sp)
    let protoset = r.optionalString(s, "protoset", at: sp)
    let files = r.optionalStrings(s, "proto", at: sp)
    let importPaths = r.optionalStrings(s, "import_paths", at: sp)
    let sources = [
      reflection == true ? "reflection" : nil, protoset.map { _ in "protoset" }, files.map { _ in "proto" },
    ]
    .compactMap { $0 }
    if sources.count > 1 {
      r.fail(
        sp, "choose one schema source, not \(sources.joined(separator: " and "))",
        hint: "keep \"reflection\": true, \"protoset\" or \"proto\"")
    }
    if let files, files.isEmpty {
      r.fail(sp + [.key("proto")], "give at least one .proto file", hint: "e.g. \"proto\": [\"service.proto\"]")
    }
    if importPaths != nil, files == nil {
      r.fail(sp + [.key("import_paths")], "\"import_paths\" applies only with \"proto\"")
    }
    if let protoset { return .protoset(path: protoset) }
    if let files { return .protoFiles(files: files, importPaths: importPaths ?? []) }
    if reflection == false {
      r.fail(
        sp, "no schema source",
        hint: "set \"reflection\": true, \"protoset\": \"file.protoset\" or \"proto\": [\"a.proto\"]")
    }
    return .reflection
  }

  static func decodeParam(
    _ name: String, _ value: JSONValue, kind: EndpointKind, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> Param? {
    guard let f = r.object(value, at: p, allowed: paramKeys) else { return nil }
    let defaultLocation = kind.capabilities.defaultParamLocation
    var location = defaultLocation
    if let text = r.optionalString(f, "in", at: p) {
      if let l = ParamLocation(rawValue: text) {
        location = l
      } else {
        r.fail(
          p + [.key("in")], "unknown parameter location \"\(text)\"",
          hint: Suggestions.hint(for: text, in: ParamLocation.allCases.map(\.rawValue))
            ?? "use path, query, header, cookie, body, form or multipart")
      }
    }
    var type: ParamType = .string
    if let text = r.optionalString(f, "type", at: p) {
      if let t = ParamType(rawValue: text) {
        type = t
      } else {
        r.fail(
          p + [.key("type")], "unknown parameter type \"\(text)\"",
          hint: Suggestions.hint(for: text, in: ParamType.allCases.map(\.rawValue))
            ?? "use string, integer, number, boolean, file, json or array")
      }
    }
    if type == .file, ![.body, .form, .multipart].contains(location) {
      r.fail(p + [.key("type")], "a file parameter must be \"in\": \"body\" or \"multipart\"")
    }
    var param = Param(name: name, location: location, type: type)
    param.required = r.optionalBool(f, "required", at: p) ?? (location == .path)
    param.defaultValue = f.first(where: { $0.key == "default" })?.value
    param.description = r.optionalString(f, "description", at: p)
    param.contentType = r.optionalString(f, "content_type", at: p)
    param.secret = r.optionalBool(f, "secret", at: p) ?? false
    param.wireName = r.optionalString(f, "name", at: p)
    if let text = r.optionalString(f, "style", at: p) {
      if let style = ParamStyle(rawValue: text) {
        param.style = style
        if !ParamStyle.allowed(in: location).contains(style) {
          r.fail(
            p + [.key("style")], "style \"\(text)\" does not apply to a \(location.rawValue) parameter",
            hint: ParamStyle.allowed(in: location).isEmpty
              ? "style applies to path, query, header, cookie, form and multipart parameters"
              : "use one of \(ParamStyle.allowed(in: location).map(\.rawValue).joined(separator: ", "))")
        }
      } else {
        r.fail(
          p + [.key("style")], "unknown style \"\(text)\"",
          hint: Suggestions.hint(for: text, in: ParamStyle.allCases.map(\.rawValue))
            ?? "use form, spaceDelimited, pipeDelimited, deepObject, simple, label or matrix")
      }
    }
    param.explode = r.optionalBool(f, "explode", at: p)
    param.deprecated = r.optionalBool(f, "deprecated", at: p) ?? false
    if location == .header {
      r.checkHeader(name: param.sentName, value: nil, at: param.wireName == nil ? p : p + [.key("name")])
    }
    if let allowed = f.first(where: { $0.key == "enum" })?.value {
      if case .array(let items) = allowed {
        param.allowed = items
      } else {
        r.fail(p + [.key("enum")], "expected an array of allowed values, got \(allowed.typeName)")
      }
    }
    param.constraints = decodeConstraints(f, type: type, at: p, &r)
    return param
  }

  /// A parameter's `format`, `minimum`, `maximum`, `min_length`, `max_length` and `pattern`;
  /// bounds apply to numbers and lengths and patterns to strings, so each is refused on another type.
  static func decodeConstraints(
    _ f: [JSONMember], type: ParamType, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> ValueConstraints {
    var c = ValueConstraints()
    c.format = r.optionalString(f, "format", at: p)
    let numeric = type == .integer || type == .number
    let textual = type == .string
    for key in ["minimum", "maximum"] where f.contains(where: { $0.key == key }) && !numeric {
      r.fail(p + [.key(key)], "\(key) applies to an integer or number parameter, not \(type.rawValue)")
    }
    for key in ["min_length", "max_length", "pattern"] where f.contains(where: { $0.key == key }) && !textual {
      r.fail(p + [.key(key)], "\(key) applies to a string parameter, not \(type.rawValue)")
    }
    c.minimum = r.optionalNumber(
      f, "minimum", at: p, range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    c.maximum = r.optionalNumber(
      f, "maximum", at: p, range: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    c.minLength = r.optionalInt(f, "min_length", at: p, range: 0...Int.max)
    c.maxLength = r.optionalInt(f, "max_length", at: p, range: 0...Int.max)
    if let lo = c.minimum, let hi = c.maximum, lo > hi {
      r.fail(p + [.key("minimum")], "minimum is above maximum")
    }
    if let lo = c.minLength, let hi = c.maxLength, lo > hi {
      r.fail(p + [.key("min_length")], "min_length is above max_length")
    }
    if let pattern = r.optionalString(f, "pattern", at: p) {
      do throws(LinearRegexError) {
        try c.setPattern(pattern)
      } catch {
        r.fail(
          p + [.key("pattern")], "the pattern cannot be used: \(error.description)",
          hint: "apx reads the regular expressions of recipe `matches` checks; see docs/registry.md")
      }
    }
    return c
  }

  /// `authPlaceholder` is the `{name}` an `api_key` auth with `"in": "path"` fills, which needs no parameter.
  static func checkPathPlaceholders(
    _ e: Endpoint, authPlaceholder: String? = nil, at p: [JSONPathComponent], _ r: inout DocumentReader
  ) {
    // A kind without a route of its own has no path to fill.
    guard e.kind.capabilities.defaultRoute != nil else { return }
    let placeholders: [String]
    do {
      placeholders = try PathTemplate(e.path).placeholders
    } catch {
      r.fail(p + [.key("path")], error.message, hint: error.hint)
      return
    }
    if let authPlaceholder, !placeholders.contains(authPlaceholder) {
      r.fail(
        p + [.key("path")],
        "the API key goes in the path segment {\(authPlaceholder)}, but the path \"\(e.path)\" has no such segment",
        hint: "add {\(authPlaceholder)} to the path, or give this endpoint its own \"auth\"")
    }
    for name in placeholders where e.param(named: name) == nil && name != authPlaceholder {
      r.fail(
        p + [.key("path")], "the path uses {\(name)} but no parameter \"\(name)\" is declared",
        hint: "add \"params\": {\"\(name)\": {\"in\": \"path\", \"required\": true}}")
    }
    for param in e.params where param.location == .path && !placeholders.contains(param.name) {
      r.fail(
        p + [.key("params"), .key(param.name)],
        "path parameter \"\(param.name)\" does not appear in the path \"\(e.path)\"",
        hint: "add {\(param.name)} to the path or change \"in\"")
    }
  }

  static func checkBody(_ e: Endpoint, at p: [JSONPathComponent], _ r: inout DocumentReader) {
    let bodyFiles = e.params.filter { $0.location == .body && $0.type == .file }
    if bodyFiles.count > 1 {
      r.fail(
        p + [.key("params")], "only one file parameter can be the whole body",
        hint: "use \"in\": \"multipart\" to send several files")
    }
    if bodyFiles.count == 1, e.params.contains(where: { $0.location == .body && $0.type != .file }) {
      r.fail(
        p + [.key("params")], "a file body cannot be combined with other body parameters",
        hint: "use \"in\": \"multipart\" for a file with fields")
    }
  }

  static func checkFallbacks(_ api: APIDefinition, _ r: inout DocumentReader) {
    let names = api.endpointNames
    for e in api.endpoints {
      guard let poll = e.sse?.fallback?.poll else { continue }
      if fallbackTarget(of: e, in: api) != nil { continue }
      // `OTHERAPI.endpoint` is checked when the call runs; this file cannot see other APIs.
      if let first = poll.split(separator: ".").first, String(first) != api.name,
        !names.contains(String(first)), !names.contains(where: { $0.hasPrefix(first + ".") })
      {
        continue
      }
      r.fail(
        [.key("endpoints"), .key(e.name), .key("fallback"), .key("poll")],
        "the fallback polls \"\(poll)\", which this API does not define",
        hint: Suggestions.hint(for: poll, in: names))
    }
  }

  static func isIdentifier(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy {
      ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_"
    }
  }

  /// A `ws://` or `wss://` base URL serves websocket endpoints only: the other kinds speak
  /// HTTP or gRPC, and an `http(s)://` base URL serves websocket endpoints too.
  static func checkWebSocketBaseURLs(_ api: APIDefinition, _ r: inout DocumentReader) {
    guard let other = api.endpoints.first(where: { !$0.kind.capabilities.servedFromWebSocketURL }) else { return }
    for env in api.environments where BaseURLCheck.isWebSocket(env.baseURL) {
      r.fail(
        [.key("environments"), .key(env.name), .key("base_url")],
        "base_url \(JSONValue.string(URLUserInfo.masked(env.baseURL)).compactJSON) is a WebSocket URL, but the endpoint "
          + "\"\(other.name)\" is a \(other.kind.rawValue) endpoint",
        hint:
          "write http:// or https://: websocket endpoints map it to ws:// or wss://, and the other kinds use it as it is"
      )
    }
  }

  static func isSupportedBaseURL(_ s: String) -> Bool {
    ["http://", "https://", "grpc://", "grpcs://", "ws://", "wss://"].contains { s.hasPrefix($0) } || s.hasPrefix("${")
  }
}
