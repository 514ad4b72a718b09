import APXCore
import APXGraphQL

/// A subscription's execution results on their way to the sink, over either carrier: each
/// result's `data` (with `--raw-response`, the whole result) is one message, to which `--until`
/// and `--max-messages` apply; its errors are notes on stderr, and make the call exit 12 at its
/// end unless `--allow-partial`. One value lives for the whole watch, across reconnections.
struct GraphQLResultDelivery: Sendable {
  var messages: WebSocketDelivery
  /// `API.ENDPOINT` or "the GraphQL call", for messages.
  let name: String
  let options: GraphQLOptions
  /// The latest connection's secrets: an error may echo a credential.
  var mask = SecretMask()
  /// Errors the results held so far.
  private(set) var errors = 0

  init(name: String, options: GraphQLOptions, maxEvents: Int?) throws(APXError) {
    self.name = name
    self.options = options
    messages = try WebSocketDelivery(
      endpointName: name, options: WebSocketOptions(until: options.until, maxMessages: options.maxMessages),
      maxEvents: maxEvents)
  }

  mutating func deliver(_ result: GraphQLAnswer, to sink: any CallEventSink) throws -> WebSocketDelivery.Verdict {
    for error in result.errors { try sink.receive(.note("GraphQL error: " + mask.mask(error.line))) }
    errors += result.errors.count
    // A whole result with errors is shown as they are: masked, since one may echo a credential.
    let raw = result.errors.isEmpty ? result.document : mask.mask(result.document)
    guard let value = options.rawResponse ? raw : result.data else { return .carryOn }
    return try messages.deliver(value, to: sink)
  }

  /// Exit 12 when results held errors, unless `--allow-partial` accepts them.
  func finish() throws(APXError) {
    guard errors > 0, !options.allowPartial else { return }
    throw APXError(
      .graphqlError, "\(name): the subscription's results held \(errors == 1 ? "an error" : "\(errors) errors")",
      hint: "each is on stderr; --allow-partial accepts results with errors (exit 0)")
  }
}

/// A GraphQL subscription as a watch carries it: the request and its results' delivery.
struct GraphQLStream: Sendable {
  let envelope: GraphQLEnvelope
  let delivery: GraphQLResultDelivery
}
