/// Turns registry values back into registry JSON that `RegistryLoader` reads
/// to equal values: used by `apx import` and `apx call URL --save`.
///
/// The output is canonical so that files diff cleanly in git: keys in a fixed
/// order (the order of docs/registry.md), defaults left out,
/// two-space indentation, and the layout of `RegistryLayout` (one line per
/// parameter and per small block, one line per key for the large blocks).
/// Writing the same values twice gives the same bytes.
public enum RegistryWriter {
  /// The whole registry file for `api`, ending with a newline.
  public static func text(_ api: APIDefinition) -> String {
    RegistryLayout.render(value(api), depth: 0) + "\n"
  }

  /// The registry document of `api` as a JSON value, keys in canonical order.
  public static func value(_ api: APIDefinition) -> JSONValue {
    var m: [JSONMember] = []
    if let s = api.schemaReference { m.append(JSONMember("$schema", .string(s))) }
    m.append(JSONMember("api", .string(api.name)))
    if let t = api.title { m.append(JSONMember("title", .string(t))) }
    if let d = api.description { m.append(JSONMember("description", .string(d))) }
    if !api.environments.isEmpty {
      m.append(
        JSONMember(
          "environments",
          .object(
            api.environments.map { env in
              var f = [JSONMember("base_url", .string(env.baseURL))]
              if let d = env.description { f.append(JSONMember("description", .string(d))) }
              if let t = env.tls { f.append(JSONMember("tls", tls(t))) }
              return JSONMember(env.name, .object(f))
            })))
    }
    if let d = api.defaultEnvironment { m.append(JSONMember("default_environment", .string(d))) }
    if !api.headers.isEmpty { m.append(JSONMember("headers", headers(api.headers))) }
    if let a = api.auth { m.append(JSONMember("auth", auth(a))) }
    if let r = api.retry { m.append(JSONMember("retry", retry(r))) }
    if let t = api.tls { m.append(JSONMember("tls", tls(t))) }
    if !api.schemas.isEmpty { m.append(JSONMember("schemas", .object(api.schemas))) }
    m.append(JSONMember("endpoints", .object(api.endpoints.map { JSONMember($0.name, endpoint($0)) })))
    return .object(m)
  }

  /// A `tls` block, paths as written.
  static func tls(_ t: TLSFiles) -> JSONValue {
    .object(
      [
        ("ca", t.ca), ("client_cert", t.clientCertificate), ("client_key", t.clientKey),
        ("client_key_passphrase_env", t.clientKeyPassphraseEnv),
      ].compactMap { key, value in value.map { JSONMember(key, .string($0)) } })
  }

  /// One endpoint's registry object (without its name), keys in canonical order.
  public static func endpoint(_ e: Endpoint) -> JSONValue {
    var m = [JSONMember("kind", .string(e.kind.rawValue))]
    if let grpc = e.grpc {
      if let d = e.description { m.append(JSONMember("description", .string(d))) }
      m.append(JSONMember("service", .string(grpc.service)))
      m.append(JSONMember("method", .string(grpc.method)))
      m.append(JSONMember("schema", schema(grpc.schema)))
    } else {
      // The loader's default method is GET (POST for jsonrpc and graphql), left out but where
      // the kind's files say it anyway.
      let defaults = e.kind.capabilities
      let defaultMethod = defaults.writesDefaultMethod ? nil : defaults.defaultRoute?.method
      if e.method != defaultMethod { m.append(JSONMember("method", .string(e.method))) }
      if defaults.requiresPath || e.path != "/" { m.append(JSONMember("path", .string(e.path))) }
      if let d = e.description { m.append(JSONMember("description", .string(d))) }
    }
    if let graphql = e.graphql {
      m.append(JSONMember("query", .string(graphql.document)))
      if let name = graphql.operationName { m.append(JSONMember("operation_name", .string(name))) }
      if let transport = graphql.transport { m.append(JSONMember("transport", .string(transport.rawValue))) }
      if graphql.reconnect != ReconnectConfig() {
        m.append(JSONMember("reconnect", reconnect(graphql.reconnect)))
      }
    }
    if let rpc = e.jsonrpc {
      m.append(JSONMember("rpc_method", .string(rpc.rpcMethod)))
      if rpc.paramsBy != .name { m.append(JSONMember("params_by", .string(rpc.paramsBy.rawValue))) }
      if rpc.notification { m.append(JSONMember("notification", .bool(true))) }
    }
    if e.idempotent { m.append(JSONMember("idempotent", .bool(true))) }
    if e.idempotencyKey { m.append(JSONMember("idempotency_key", .bool(true))) }
    if let b = e.bodyEncoding { m.append(JSONMember("body", .string(b.rawValue))) }
    if let x = e.bodyExample { m.append(JSONMember("body_example", x)) }
    if let s = e.bodySchema { m.append(JSONMember("body_schema", s)) }
    if !e.accepts.isEmpty {
      m.append(
        JSONMember(
          "accepts",
          .array(
            e.accepts.map { a in
              .object(
                [JSONMember("content_type", .string(a.contentType))]
                  + (a.schema.map { [JSONMember("schema", $0)] } ?? []))
            })))
    }
    if !e.responses.isEmpty { m.append(JSONMember("responses", responses(e.responses))) }
    if !e.params.isEmpty {
      m.append(JSONMember("params", .object(e.params.map { JSONMember($0.name, param($0, kind: e.kind)) })))
    }
    if !e.headers.isEmpty { m.append(JSONMember("headers", headers(e.headers))) }
    if let s = e.expectStatus { m.append(JSONMember("expect_status", .array(s.map(JSONValue.int)))) }
    if let a = e.auth { m.append(JSONMember("auth", auth(a))) }
    if let r = e.retry { m.append(JSONMember("retry", retry(r))) }
    if let codes = e.grpc?.retryableCodes {
      m.append(JSONMember("retry_codes", .array(codes.map(JSONValue.string))))
    }
    if let t = e.timeout { m.append(JSONMember("timeout", .double(t))) }
    // A REST endpoint's `events` come from the command line (`--until-event`), not the registry.
    if let sse = e.sse { m += sseMembers(sse) }
    if let p = e.grpc?.progress { m.append(JSONMember("progress", progress(p))) }
    if let ws = e.websocket { m += webSocketMembers(ws) }
    if let pages = e.pagination { m.append(JSONMember("pagination", pages.registryJSON(includingDefaults: false))) }
    return .object(m)
  }

  /// A WebSocket endpoint's own keys, the defaults left out.
  public static func webSocketMembers(_ o: WebSocketOptions) -> [JSONMember] {
    var m: [JSONMember] = []
    if !o.subprotocols.isEmpty { m.append(JSONMember("subprotocols", .array(o.subprotocols.map(JSONValue.string)))) }
    if !o.send.isEmpty { m.append(JSONMember("send", .array(o.send))) }
    if let until = o.until {
      let test: JSONMember =
        switch until.test {
        case .equals(let value): JSONMember("equals", value)
        case .matches(let pattern): JSONMember("matches", .string(pattern))
        }
      m.append(JSONMember("until", .object([JSONMember("path", .string(until.path)), test])))
    }
    if let n = o.maxMessages { m.append(JSONMember("max_messages", .int(n))) }
    if let s = o.pingInterval { m.append(JSONMember("ping_interval", .double(s))) }
    if o.reconnect != ReconnectConfig() {
      m.append(JSONMember("reconnect", reconnect(o.reconnect)))
    }
    if let p = o.progress { m.append(JSONMember("progress", progress(p))) }
    if let sent = o.serverMessages {
      var members: [JSONMember] = []
      if !sent.examples.isEmpty { members.append(JSONMember("examples", .array(sent.examples))) }
      if let schema = sent.schema { members.append(JSONMember("schema", schema)) }
      m.append(JSONMember("server_messages", .object(members)))
    }
    return m
  }

  /// One parameter's registry object; `kind` decides which `in` is the default.
  public static func param(_ p: Param, kind: EndpointKind) -> JSONValue {
    var m = [JSONMember("in", .string(p.location.rawValue))]
    if let w = p.wireName { m.append(JSONMember("name", .string(w))) }
    if p.type != .string { m.append(JSONMember("type", .string(p.type.rawValue))) }
    if let c = p.contentType { m.append(JSONMember("content_type", .string(c))) }
    // Written whenever true (a path parameter too, for readers), false only where it is not the default.
    if p.required || p.location == .path { m.append(JSONMember("required", .bool(p.required))) }
    if let d = p.defaultValue { m.append(JSONMember("default", d)) }
    if let a = p.allowed { m.append(JSONMember("enum", .array(a))) }
    m += constraints(p.constraints)
    if let s = p.style { m.append(JSONMember("style", .string(s.rawValue))) }
    if let x = p.explode { m.append(JSONMember("explode", .bool(x))) }
    if p.deprecated { m.append(JSONMember("deprecated", .bool(true))) }
    if p.secret { m.append(JSONMember("secret", .bool(true))) }
    if let d = p.description { m.append(JSONMember("description", .string(d))) }
    return .object(m)
  }

  /// A parameter's constraint members, in registry order.
  public static func constraints(_ c: ValueConstraints) -> [JSONMember] {
    var m: [JSONMember] = []
    if let f = c.format { m.append(JSONMember("format", .string(f))) }
    if let n = c.minimum { m.append(JSONMember("minimum", .number(ValueConstraints.shown(n)))) }
    if let n = c.maximum { m.append(JSONMember("maximum", .number(ValueConstraints.shown(n)))) }
    if let n = c.minLength { m.append(JSONMember("min_length", .int(n))) }
    if let n = c.maxLength { m.append(JSONMember("max_length", .int(n))) }
    if let t = c.pattern { m.append(JSONMember("pattern", .string(t))) }
    return m
  }

  /// An `auth` block.
  public static func auth(_ a: AuthConfig) -> JSONValue {
    var m = [JSONMember("type", .string(a.typeName))]
    if case .subprotocol(let prefix, let token) = a {
      guard case .object(let inner) = auth(token) else { return auth(token) }
      return .object(inner + [JSONMember("in", .string("subprotocol")), JSONMember("prefix", .string(prefix))])
    }
    switch a {
    case .none: break
    case .bearer(let token): m.append(JSONMember("token", .string(token)))
    case .apiKey(let location, let name, let value):
      m += [
        JSONMember("in", .string(location.rawValue)), JSONMember("name", .string(name)),
        JSONMember("value", .string(value)),
      ]
    case .basic(let user, let password):
      m.append(JSONMember("username", .string(user)))
      if !password.isEmpty { m.append(JSONMember("password", .string(password))) }
    case .oauth2ClientCredentials(let c):
      m += [
        JSONMember("token_url", .string(c.tokenURL)), JSONMember("client_id", .string(c.clientID)),
        JSONMember("client_secret", .string(c.clientSecret)),
      ]
      if !c.scopes.isEmpty { m.append(JSONMember("scopes", .array(c.scopes.map(JSONValue.string)))) }
      if let a = c.audience { m.append(JSONMember("audience", .string(a))) }
      if !c.extraFields.isEmpty { m.append(JSONMember("extra_fields", headers(c.extraFields))) }
    case .oauth2Login(let c):
      switch c.grant {
      case .authorizationCode(let url, let port, let path):
        if let url { m.append(JSONMember("authorize_url", .string(url))) }
        if let port { m.append(JSONMember("redirect_port", .int(port))) }
        if path != "/callback" { m.append(JSONMember("redirect_path", .string(path))) }
      case .deviceCode(let url):
        if let url { m.append(JSONMember("device_authorization_url", .string(url))) }
      }
      let optional: [(String, String?)] = [
        ("issuer", c.issuer), ("token_url", c.tokenURL), ("revocation_url", c.revocationURL),
        ("client_id", c.clientID), ("client_secret", c.clientSecret), ("audience", c.audience),
      ]
      m += optional.compactMap { key, value in value.map { JSONMember(key, .string($0)) } }
      if !c.scopes.isEmpty { m.append(JSONMember("scopes", .array(c.scopes.map(JSONValue.string)))) }
      if !c.extraParams.isEmpty { m.append(JSONMember("extra_params", headers(c.extraParams))) }
      if c.clientAuth != .body { m.append(JSONMember("client_auth", .string(c.clientAuth.rawValue))) }
    case .tokenCommand(let command, let lifetime):
      m.append(JSONMember("command", .array(command.map(JSONValue.string))))
      if let l = lifetime { m.append(JSONMember("lifetime", .double(l))) }
    case .subprotocol: break
    }
    return .object(m)
  }

  /// A `reconnect` block: its delays and how many failures in a row end the watch.
  public static func reconnect(_ r: ReconnectConfig) -> JSONValue {
    .object([
      JSONMember("delays", .array(r.delays.map(JSONValue.double))), JSONMember("max_failures", .int(r.maxFailures)),
    ])
  }

  /// A `retry` block with only the fields that are set.
  public static func retry(_ r: RetryConfig) -> JSONValue {
    var m: [JSONMember] = []
    if let v = r.maxAttempts { m.append(JSONMember("max_attempts", .int(v))) }
    if let v = r.initialDelay { m.append(JSONMember("initial_delay", .double(v))) }
    if let v = r.multiplier { m.append(JSONMember("multiplier", .double(v))) }
    if let v = r.maxDelay { m.append(JSONMember("max_delay", .double(v))) }
    if let v = r.jitter { m.append(JSONMember("jitter", .bool(v))) }
    if let v = r.onStatus { m.append(JSONMember("on_status", .array(v.map(JSONValue.int)))) }
    if let v = r.onGRPCCodes { m.append(JSONMember("on_grpc_codes", .array(v.map(JSONValue.string)))) }
    return .object(m)
  }

  static func responses(_ list: [EndpointResponse]) -> JSONValue {
    .object(
      list.map { r in
        var m: [JSONMember] = []
        if let t = r.contentType { m.append(JSONMember("content_type", .string(t))) }
        if let s = r.schema { m.append(JSONMember("schema", s)) }
        if !r.examples.isEmpty { m.append(JSONMember("examples", .object(r.examples))) }
        return JSONMember(r.status, .object(m))
      })
  }

  static func headers(_ fields: [HeaderField]) -> JSONValue {
    .object(fields.map { JSONMember($0.name, .string($0.value)) })
  }

  static func schema(_ s: SchemaSource) -> JSONValue {
    switch s {
    case .reflection: return .object([JSONMember("reflection", .bool(true))])
    case .protoset(let path): return .object([JSONMember("protoset", .string(path))])
    case .protoFiles(let files, let importPaths):
      var m = [JSONMember("proto", .array(files.map(JSONValue.string)))]
      if !importPaths.isEmpty { m.append(JSONMember("import_paths", .array(importPaths.map(JSONValue.string)))) }
      return .object(m)
    }
  }

  static func sseMembers(_ o: SSEOptions) -> [JSONMember] {
    var m: [JSONMember] = []
    if !o.untilEvent.isEmpty { m.append(JSONMember("until_event", .array(o.untilEvent.map(JSONValue.string)))) }
    if !o.failOnEvent.isEmpty { m.append(JSONMember("fail_on_event", .array(o.failOnEvent.map(JSONValue.string)))) }
    if o.reconnect != ReconnectConfig() {
      m.append(JSONMember("reconnect", reconnect(o.reconnect)))
    }
    if let f = o.fallback {
      var fm = [
        JSONMember("poll", .string(f.poll)), JSONMember("interval", .double(f.interval)),
        JSONMember("until", .string(f.until)), JSONMember("equals", .array(f.equals)),
      ]
      if !f.failWhen.isEmpty { fm.append(JSONMember("fail_when", .array(f.failWhen))) }
      m.append(JSONMember("fallback", .object(fm)))
    }
    if let p = o.progress { m.append(JSONMember("progress", progress(p))) }
    return m
  }

  /// A `progress` block (SSE or gRPC).
  static func progress(_ p: ProgressFields) -> JSONValue {
    var pm: [JSONMember] = []
    if let v = p.fraction { pm.append(JSONMember("fraction", .string(v))) }
    if let v = p.done { pm.append(JSONMember("done", .string(v))) }
    if let v = p.total { pm.append(JSONMember("total", .string(v))) }
    return .object(pm)
  }
}
