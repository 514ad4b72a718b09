/// The options of a `kind: "websocket"` endpoint, read from its registry object.
enum WebSocketOptionsDecoder {
  static func decode(_ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader) -> WebSocketOptions {
    var o = WebSocketOptions()
    o.subprotocols = r.optionalStrings(f, "subprotocols", at: p) ?? []
    if let value = f.first(where: { $0.key == "send" })?.value {
      if case .array(let messages) = value {
        o.send = messages
      } else {
        r.fail(
          p + [.key("send")], "expected an array of messages, got \(value.typeName)",
          hint: "e.g. \"send\": [{\"subscribe\": \"${job_id}\"}]; a string is sent as text, anything else as JSON")
      }
    }
    if let value = f.first(where: { $0.key == "until" })?.value {
      o.until = decodeUntil(value, at: p + [.key("until")], &r)
    }
    o.maxMessages = r.optionalInt(f, "max_messages", at: p, range: 1...Int(Int32.max))
    o.pingInterval = r.optionalNumber(f, "ping_interval", at: p, range: 0.01...86_400)
    if let value = f.first(where: { $0.key == "reconnect" })?.value {
      SSEOptionsDecoder.decodeReconnect(value, at: p + [.key("reconnect")], into: &o.reconnect, &r)
    }
    if let value = f.first(where: { $0.key == "progress" })?.value {
      o.progress = SSEOptionsDecoder.decodeProgress(value, at: p + [.key("progress")], &r)
    }
    if let value = f.first(where: { $0.key == "server_messages" })?.value {
      o.serverMessages = decodeServerMessages(value, at: p + [.key("server_messages")], &r)
    }
    return o
  }

  /// `{"examples": [MESSAGE, ...], "schema": {JSON Schema}}`, at least one of the two.
  static func decodeServerMessages(_ value: JSONValue, at up: [JSONPathComponent], _ r: inout DocumentReader)
    -> WebSocketServerMessages?
  {
    guard let uf = r.object(value, at: up, allowed: ["examples", "schema"]) else { return nil }
    var out = WebSocketServerMessages()
    if let examples = uf.first(where: { $0.key == "examples" })?.value {
      guard case .array(let items) = examples, !items.isEmpty else {
        r.fail(
          up + [.key("examples")], "expected a non-empty array of messages, got \(examples.typeName)",
          hint:
            "e.g. \"examples\": [{\"type\": \"progress\"}, \"text\"]; a string is sent as text, anything else as JSON")
        return nil
      }
      out.examples = items
    }
    out.schema = RegistryLoader.optionalSchema(uf, "schema", at: up, &r)
    if out.examples.isEmpty, out.schema == nil {
      r.fail(up, "give \"examples\", \"schema\" or both", hint: "e.g. {\"examples\": [{\"type\": \"complete\"}]}")
      return nil
    }
    return out
  }

  /// `{"path": ".type", "equals": VALUE}` or `{"path": ".type", "matches": "PATTERN"}`.
  static func decodeUntil(_ value: JSONValue, at up: [JSONPathComponent], _ r: inout DocumentReader)
    -> MessageCondition?
  {
    guard let uf = r.object(value, at: up, allowed: ["path", "equals", "matches"]),
      let path = r.requiredString(uf, "path", at: up)
    else { return nil }
    do {
      _ = try JSONPath(parsing: path)
    } catch {
      r.fail(up + [.key("path")], "\"\(path)\" is not a jq-style path", hint: "write it like \".type\"")
      return nil
    }
    let equals = uf.first(where: { $0.key == "equals" })?.value
    let matches = r.optionalString(uf, "matches", at: up)
    switch (equals, matches) {
    case (let value?, nil): return MessageCondition(path: path, test: .equals(value))
    case (nil, let pattern?):
      do {
        _ = try LinearRegex(pattern)
      } catch {
        r.fail(up + [.key("matches")], "the pattern \"\(pattern)\" cannot be used: \(error.message)")
        return nil
      }
      return MessageCondition(path: path, test: .matches(pattern))
    default:
      r.fail(
        up, "give exactly one of \"equals\" and \"matches\"",
        hint: "e.g. {\"path\": \".type\", \"equals\": \"complete\"}")
      return nil
    }
  }
}
