import APXCore
import APXGraphQL

/// Hands a watch's items to the sink and applies its stop conditions:
/// `until_event` (stop, success), `fail_on_event` (throw `remoteFailure`),
/// `--max-events`; drops events a resumed stream replays; reports progress.
///
/// One value lives for the whole watch, across reconnections and the polling
/// fallback, so counts and seen ids carry over.
struct SSEDelivery: Sendable {
  /// What to do after an item was delivered.
  enum Verdict: Sendable, Equatable {
    case carryOn
    case stop
  }

  /// `API.ENDPOINT`, for messages.
  let endpointName: String
  let untilEvent: Set<String>
  let failOnEvent: Set<String>
  let maxEvents: Int?
  let progress: StreamProgressReader?
  /// Items handed to the sink (events and poll results).
  private(set) var delivered = 0
  /// Events dropped because a resumed stream sent them again.
  private(set) var duplicatesDropped = 0
  var deduplicator = SSEDeduplicator()
  /// A GraphQL subscription's results: `next` events are delivered by it, `complete` ends the watch.
  var graphQL: GraphQLResultDelivery?

  init(endpointName: String, options: SSEOptions, maxEvents: Int?) throws(APXError) {
    self.endpointName = endpointName
    self.untilEvent = Set(options.untilEvent)
    self.failOnEvent = Set(options.failOnEvent)
    self.maxEvents = maxEvents
    self.progress = try options.progress.map { fields throws(APXError) in
      try StreamProgressReader(fields, endpoint: endpointName)
    }
  }

  /// Delivers one parsed event unless it is a replayed duplicate.
  /// - Throws: the sink's error, or `APXError` (`.remoteFailure`) for a `fail_on_event` event.
  mutating func deliver(_ event: SSEEvent, to sink: any CallEventSink) throws -> Verdict {
    if graphQL != nil { return try deliverGraphQL(event, to: sink) }
    if deduplicator.isDuplicate(event.id) {
      duplicatesDropped += 1
      return .carryOn
    }
    deduplicator.record(event.id)
    let value = event.jsonValue
    try sink.receive(.message(value))
    delivered += 1
    if let progress, let data = value["data"], let update = progress.read(data) {
      try sink.receive(update)
    }
    if !failOnEvent.isEmpty, failOnEvent.contains(event.event) {
      throw failure(event: event.event, id: event.id, data: value["data"] ?? .null)
    }
    if !untilEvent.isEmpty, untilEvent.contains(event.event) { return .stop }
    if let maxEvents, delivered >= maxEvents { return .stop }
    return .carryOn
  }

  /// Delivers one poll result of the fallback endpoint, printed as an event
  /// `{"id": null, "event": "poll", "data": RESULT}` so that stream consumers
  /// (`--select .data.status`, a recipe's `last.data`) see the same shape.
  mutating func deliverPoll(_ result: JSONValue, to sink: any CallEventSink) throws -> Verdict {
    let value = JSONValue.object([
      JSONMember("id", .null), JSONMember("event", .string(Self.pollEventName)), JSONMember("data", result),
    ])
    try sink.receive(.message(value))
    delivered += 1
    if let progress, let update = progress.read(result) {
      try sink.receive(update)
    }
    if let maxEvents, delivered >= maxEvents { return .stop }
    return .carryOn
  }

  /// GraphQL over SSE: a `next` event's data is an execution result, `complete` ends the
  /// subscription, and other events (comments, keep-alives) are skipped.
  private mutating func deliverGraphQL(_ event: SSEEvent, to sink: any CallEventSink) throws -> Verdict {
    switch event.event {
    case "complete":
      return .stop
    case "next":
      let answer: GraphQLAnswer
      do {
        answer = try GraphQLAnswer(try JSONParser.parse(Array(event.data.utf8)))
      } catch {
        throw APXError(
          .expectation, "\(endpointName): a \"next\" event holds no GraphQL execution result",
          hint: "check that the server speaks GraphQL over SSE (distinct connections), or try --graphql-transport ws")
      }
      delivered += 1
      return try graphQL?.deliver(answer, to: sink) == .stop ? .stop : .carryOn
    default:
      return .carryOn
    }
  }

  /// The `event` value of printed poll results.
  static let pollEventName = "poll"

  private func failure(event: String, id: String?, data: JSONValue) -> APXError {
    let message = SSEFailureMessage.text(in: data) ?? "the stream sent a \"\(event)\" event"
    return APXError(
      .remoteFailure, "\(endpointName) reported a failure: \(message)",
      hint: "the \"\(event)\" event" + (id.map { " (id \($0))" } ?? "")
        + " is the last line on stdout; it is listed in the endpoint's fail_on_event")
  }
}
