/// Decodes the `auth` block of a registry file or endpoint.
enum AuthConfigDecoder {
  /// Types whose token may travel in a WebSocket subprotocol (`"in": "subprotocol"`).
  static let subprotocolTypes = [
    "bearer", "api_key", "oauth2_client_credentials", "oauth2_authorization_code", "oauth2_device_code",
    "token_command",
  ]

  static func decode(_ value: JSONValue, at p: [JSONPathComponent], _ r: inout DocumentReader) -> AuthConfig? {
    guard case .object(var f) = value else {
      r.fail(
        p, "expected an auth object such as {\"type\": \"bearer\", \"token\": \"${env:TOKEN}\"}, got \(value.typeName)")
      return nil
    }
    guard f.first(where: { $0.key == "in" })?.value == .string("subprotocol") else {
      return decodeToken(value, at: p, &r)
    }
    let type = r.requiredString(f, "type", at: p) ?? ""
    guard subprotocolTypes.contains(type) else {
      r.fail(
        p + [.key("in")], "\(type) auth cannot travel in a WebSocket subprotocol",
        hint: "\"in\": \"subprotocol\" applies to \(subprotocolTypes.joined(separator: ", "))")
      return nil
    }
    let prefix = r.optionalString(f, "prefix", at: p) ?? ""
    if prefix.contains(where: { $0 == "," || $0 == " " }) {
      r.fail(p + [.key("prefix")], "a subprotocol prefix holds no comma or space", hint: "e.g. \"bookstrack-auth.\"")
    }
    f.removeAll { $0.key == "in" || $0.key == "prefix" }
    if type == "api_key" {
      // A key in a subprotocol needs no header name.
      guard let key = r.requiredString(f, "value", at: p) else { return nil }
      _ = r.object(.object(f), at: p, allowed: ["type", "value"])
      return .subprotocol(prefix: prefix, token: .bearer(token: key))
    }
    return decodeToken(.object(f), at: p, &r).map { .subprotocol(prefix: prefix, token: $0) }
  }

  /// Every type's own keys, `in` being a header, query or path location.
  static func decodeToken(_ value: JSONValue, at p: [JSONPathComponent], _ r: inout DocumentReader) -> AuthConfig? {
    guard case .object(let f) = value else {
      r.fail(
        p, "expected an auth object such as {\"type\": \"bearer\", \"token\": \"${env:TOKEN}\"}, got \(value.typeName)")
      return nil
    }
    guard let type = r.requiredString(f, "type", at: p) else { return nil }
    let types = [
      "none", "bearer", "api_key", "basic", "oauth2_client_credentials", "oauth2_authorization_code",
      "oauth2_device_code", "token_command",
    ]
    switch type {
    case "none":
      _ = r.object(value, at: p, allowed: ["type"])
      return AuthConfig.none
    case "bearer":
      _ = r.object(value, at: p, allowed: ["type", "token"])
      return .bearer(token: r.optionalString(f, "token", at: p) ?? "")
    case "api_key":
      _ = r.object(value, at: p, allowed: ["type", "in", "name", "value"])
      let whereText = r.optionalString(f, "in", at: p) ?? "header"
      guard let location = APIKeyLocation(rawValue: whereText) else {
        r.fail(p + [.key("in")], "unknown API key location \"\(whereText)\"", hint: "use header, query or path")
        return nil
      }
      guard let name = r.requiredString(f, "name", at: p), let keyValue = r.requiredString(f, "value", at: p) else {
        return nil
      }
      if location == .header {
        r.checkHeader(name: name, value: nil, at: p + [.key("name")])
        r.checkHeader(name: name, value: keyValue, at: p + [.key("value")])
      }
      return .apiKey(location: location, name: name, value: keyValue)
    case "basic":
      _ = r.object(value, at: p, allowed: ["type", "username", "password"])
      guard let user = r.requiredString(f, "username", at: p) else { return nil }
      return .basic(username: user, password: r.optionalString(f, "password", at: p) ?? "")
    case "oauth2_client_credentials":
      _ = r.object(
        value, at: p,
        allowed: [
          "type", "token_url", "client_id", "client_secret", "scopes", "audience", "extra_fields", "client_auth",
        ])
      guard let url = r.requiredString(f, "token_url", at: p), let id = r.requiredString(f, "client_id", at: p),
        let secret = r.requiredString(f, "client_secret", at: p)
      else { return nil }
      return .oauth2ClientCredentials(
        OAuth2Config(
          tokenURL: url, clientID: id, clientSecret: secret, scopes: r.optionalStrings(f, "scopes", at: p) ?? [],
          audience: r.optionalString(f, "audience", at: p),
          extraFields: r.optionalStringMap(f, "extra_fields", at: p) ?? [], clientAuth: clientAuth(f, at: p, &r)))
    case "oauth2_authorization_code", "oauth2_device_code":
      return OAuth2LoginDecoder.decode(type, value, f, at: p, &r).map { .oauth2Login($0) }
    case "token_command":
      _ = r.object(value, at: p, allowed: ["type", "command", "lifetime"])
      guard let command = r.optionalStrings(f, "command", at: p), !command.isEmpty else {
        r.fail(p, "token_command needs \"command\": [\"program\", \"arg\", ...]")
        return nil
      }
      return .tokenCommand(command: command, lifetime: r.optionalNumber(f, "lifetime", at: p, range: 1...31_536_000))
    default:
      r.fail(
        p + [.key("type")], "unknown auth type \"\(type)\"",
        hint: Suggestions.hint(for: type, in: types) ?? "use one of \(types.joined(separator: ", "))")
      return nil
    }
  }
}

extension AuthConfigDecoder {
  /// `client_auth`: `body` (the default) or `basic`.
  static func clientAuth(_ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader)
    -> OAuth2ClientAuth
  {
    guard let text = r.optionalString(f, "client_auth", at: p) else { return .body }
    if let parsed = OAuth2ClientAuth(rawValue: text) { return parsed }
    r.fail(
      p + [.key("client_auth")], "unknown client_auth \"\(text)\"",
      hint: "use \"body\" (client_id and client_secret as form fields) or \"basic\" (Authorization: Basic)")
    return .body
  }
}

/// Decodes a `retry` block. Values are range-checked here so that nothing
/// out of range reaches GRPCCore's RetryPolicy, which traps on them.
enum RetryConfigDecoder {
  static let grpcCodes = [
    "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
  ]

  static func decode(_ value: JSONValue, at p: [JSONPathComponent], _ r: inout DocumentReader) -> RetryConfig? {
    guard
      let f = r.object(
        value, at: p,
        allowed: ["max_attempts", "initial_delay", "multiplier", "max_delay", "jitter", "on_status", "on_grpc_codes"])
    else { return nil }
    var c = RetryConfig()
    c.maxAttempts = r.optionalInt(f, "max_attempts", at: p, range: 1...100)
    c.initialDelay = r.optionalNumber(f, "initial_delay", at: p, range: 0.001...3600)
    c.multiplier = r.optionalNumber(f, "multiplier", at: p, range: 1...100)
    c.maxDelay = r.optionalNumber(f, "max_delay", at: p, range: 0.001...3600)
    c.jitter = r.optionalBool(f, "jitter", at: p)
    if let i = c.initialDelay, let m = c.maxDelay, m < i {
      r.fail(p + [.key("max_delay")], "max_delay (\(m)) is smaller than initial_delay (\(i))")
    }
    if let statuses = f.first(where: { $0.key == "on_status" })?.value {
      let sp = p + [.key("on_status")]
      if case .array(let items) = statuses {
        c.onStatus = items.enumerated().compactMap { r.int($0.element, at: sp + [.index($0.offset)], range: 100...599) }
      } else {
        r.fail(sp, "expected an array of HTTP status codes, got \(statuses.typeName)")
      }
    }
    c.onGRPCCodes = grpcCodeNames(f, "on_grpc_codes", at: p, &r)
    return c
  }

  /// A list of gRPC status names (or one name). An empty list is rejected:
  /// GRPCCore's RetryPolicy traps on an empty set of retryable codes.
  static func grpcCodeNames(_ f: [JSONMember], _ key: String, at p: [JSONPathComponent], _ r: inout DocumentReader)
    -> [String]?
  {
    guard let codes = r.optionalStrings(f, key, at: p) else { return nil }
    if codes.isEmpty {
      r.fail(p + [.key(key)], "give at least one gRPC status name", hint: "e.g. [\"UNAVAILABLE\"], or remove the key")
    }
    let isList = f.first(where: { $0.key == key })?.value.arrayValue != nil
    for (i, code) in codes.enumerated() where !grpcCodes.contains(code) {
      r.fail(
        isList ? p + [.key(key), .index(i)] : p + [.key(key)], "unknown gRPC status \"\(code)\"",
        hint: Suggestions.hint(for: code, in: grpcCodes) ?? "use names such as UNAVAILABLE")
    }
    return codes
  }
}

/// Decodes the SSE keys of an `sse` endpoint.
enum SSEOptionsDecoder {
  static func decode(_ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader) -> SSEOptions {
    var o = SSEOptions()
    o.untilEvent = r.optionalStrings(f, "until_event", at: p) ?? []
    o.failOnEvent = r.optionalStrings(f, "fail_on_event", at: p) ?? []
    if let value = f.first(where: { $0.key == "reconnect" })?.value {
      decodeReconnect(value, at: p + [.key("reconnect")], into: &o.reconnect, &r)
    }
    if let value = f.first(where: { $0.key == "fallback" })?.value {
      let fp = p + [.key("fallback")]
      if let ff = r.object(value, at: fp, allowed: ["poll", "interval", "until", "equals", "fail_when"]),
        let poll = r.requiredString(ff, "poll", at: fp), let until = r.requiredString(ff, "until", at: fp)
      {
        var equals: [JSONValue] = []
        if let e = ff.first(where: { $0.key == "equals" })?.value {
          equals = e.arrayValue ?? [e]
        } else {
          r.fail(fp, "missing required key \"equals\"", hint: "the values of \"until\" that end the polling")
        }
        var failWhen: [JSONValue] = []
        if let e = ff.first(where: { $0.key == "fail_when" })?.value { failWhen = e.arrayValue ?? [e] }
        o.fallback = PollFallback(
          poll: poll, interval: r.optionalNumber(ff, "interval", at: fp, range: 0.01...86_400) ?? 10, until: until,
          equals: equals, failWhen: failWhen)
      }
    }
    if let value = f.first(where: { $0.key == "progress" })?.value {
      o.progress = decodeProgress(value, at: p + [.key("progress")], &r)
    }
    return o
  }

  /// A `reconnect` block (`delays`, `max_failures`) over the defaults in `reconnect`.
  static func decodeReconnect(
    _ value: JSONValue, at rp: [JSONPathComponent], into reconnect: inout ReconnectConfig, _ r: inout DocumentReader
  ) {
    guard let rf = r.object(value, at: rp, allowed: ["delays", "max_failures"]) else { return }
    if let delays = r.optionalNumbers(rf, "delays", at: rp, range: 0...3600) {
      if delays.isEmpty {
        r.fail(rp + [.key("delays")], "give at least one delay in seconds")
      } else {
        reconnect.delays = delays
      }
    }
    reconnect.maxFailures = r.optionalInt(rf, "max_failures", at: rp, range: 1...1000) ?? reconnect.maxFailures
  }

  /// A `progress` block: jq-style paths into a stream's messages.
  static func decodeProgress(_ value: JSONValue, at pp: [JSONPathComponent], _ r: inout DocumentReader)
    -> ProgressFields?
  {
    guard let pf = r.object(value, at: pp, allowed: ["fraction", "done", "total"]) else { return nil }
    return ProgressFields(
      fraction: r.optionalString(pf, "fraction", at: pp), done: r.optionalString(pf, "done", at: pp),
      total: r.optionalString(pf, "total", at: pp))
  }
}
