import APXCore

/// The messages a mocked WebSocket endpoint sends on one connection: its `server_messages`
/// examples, else `count` messages generated from its message schema (an object when it has
/// none), with the endpoint's `until` holding on the last one: a message that makes it hold is
/// appended when the last does not, as an SSE stream sends its `until_event` last.
enum WebSocketMessagePlan {
  /// Each message as the text sent: a string as it is, any other value as compact JSON.
  static func messages(for endpoint: Endpoint, count: Int, generator: inout ValueGenerator) -> [String] {
    let options = endpoint.websocket ?? WebSocketOptions()
    var values = options.serverMessages?.examples ?? []
    if values.isEmpty {
      let schema = options.serverMessages?.schema ?? .object([JSONMember("type", .string("object"))])
      values = (0..<count).map { _ in generator.value(for: schema) }
    }
    if let until = options.until, values.last.map({ !until.holds(for: $0) }) ?? true,
      let last = untilMessage(until, generator: &generator)
    {
      values.append(last)
    }
    return values.map { $0.stringValue ?? $0.compactJSON }
  }

  /// A message `until` holds for: the value at a path of member names (`.type`,
  /// `.job.status`); nil for a path with indexes, which no built message could satisfy alone.
  static func untilMessage(_ until: MessageCondition, generator: inout ValueGenerator) -> JSONValue? {
    guard let path = try? JSONPath(parsing: until.path) else { return nil }
    var keys: [String] = []
    for step in path.steps {
      guard case .key(let name) = step.kind else { return nil }
      keys.append(name)
    }
    var value: JSONValue
    switch until.test {
    case .equals(let expected): value = expected
    case .matches(let pattern):
      value = generator.value(
        for: .object([JSONMember("type", .string("string")), JSONMember("pattern", .string(pattern))]))
    }
    for key in keys.reversed() { value = .object([JSONMember(key, value)]) }
    return until.holds(for: value) ? value : nil
  }
}
