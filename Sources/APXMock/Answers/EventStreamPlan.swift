import APXCore

/// The events an SSE endpoint streams: its declared example (a list of events, each
/// `{"id", "event", "data"}` or just the data), else `count` events generated from its schema;
/// the endpoint's first `until_event` type comes last. IDs count from 1, so a client
/// that reconnects with `Last-Event-ID: N` gets the events after N.
enum EventStreamPlan {
  static func events(
    for endpoint: Endpoint, response: EndpointResponse?, example: JSONValue?, count: Int,
    generator: inout ValueGenerator
  ) -> [MockEvent] {
    var events: [MockEvent] = []
    if case .array(let items)? = example {
      for (i, item) in items.enumerated() {
        let isEvent =
          item["data"] != nil && (item.objectMembers?.allSatisfy { ["id", "event", "data"].contains($0.key) } ?? false)
        let data = isEvent ? (item["data"] ?? item) : item
        events.append(
          MockEvent(
            id: i + 1, type: isEvent ? item["event"]?.stringValue : nil,
            data: data.stringValue ?? data.compactJSON))
      }
    } else {
      let schema = response?.schema ?? .object([JSONMember("type", .string("object"))])
      for i in 0..<count {
        events.append(MockEvent(id: i + 1, type: nil, data: generator.value(for: schema).compactJSON))
      }
    }
    if let last = endpoint.sse?.untilEvent.first,
      events.last?.type != last
    {
      events.append(MockEvent(id: events.count + 1, type: last, data: "{}"))
    }
    return events
  }
}
