import APXCore

/// Hands a WebSocket watch's messages to the sink and applies its stop conditions (`until`,
/// `max_messages` or `--max-messages`), reporting progress. One value lives for the whole
/// watch, across reconnections, so the count carries over.
struct WebSocketDelivery: Sendable {
  enum Verdict: Sendable, Equatable {
    case carryOn
    case stop
  }

  let until: MessageCondition?
  let untilPath: JSONPath?
  let maxMessages: Int?
  let progress: StreamProgressReader?
  /// Messages handed to the sink.
  private(set) var delivered = 0
  /// A stop condition was met: the watch is over.
  private(set) var done = false

  init(endpointName: String, options: WebSocketOptions, maxEvents: Int?) throws(APXError) {
    until = options.until
    untilPath = try options.until.map { condition throws(APXError) in try JSONPath(parsing: condition.path) }
    maxMessages = [options.maxMessages, maxEvents].compactMap { $0 }.min()
    progress = try options.progress.map { fields throws(APXError) in
      try StreamProgressReader(fields, endpoint: endpointName)
    }
  }

  /// Whether the watch is bounded: without `until` or a message limit, a closed connection ends it.
  var hasStopCondition: Bool { until != nil || maxMessages != nil }

  mutating func deliver(_ value: JSONValue, to sink: any CallEventSink) throws -> Verdict {
    try sink.receive(.message(value))
    delivered += 1
    if let progress, let update = progress.read(value) { try sink.receive(update) }
    if let until, let untilPath, let found = try? untilPath.selectValue(in: value) {
      let holds: Bool =
        switch until.test {
        case .equals(let expected): MessageCondition.same(found, expected)
        case .matches: until.holds(for: value)
        }
      if holds {
        done = true
        return .stop
      }
    }
    if let maxMessages, delivered >= maxMessages {
      done = true
      return .stop
    }
    return .carryOn
  }
}
