/// What a call of an endpoint answers, as a recipe step sees it: whether it
/// has a body, whether it is a stream of items, and so which fields its step
/// result holds. Recipe code (the validator, the runner, the step capture, the
/// dry run) asks this instead of switching on the endpoint's kind, so a new
/// protocol is described here once and recipe code stays as it is.
public struct EndpointResultShape: Sendable, Hashable {
  /// Where a result's `body` comes from.
  public enum Body: Sendable, Hashable {
    /// The response body's bytes (JSON when they parse, else text).
    case responseBytes
    /// The last stream message (a unary gRPC answer is one message).
    case lastMessage
  }

  /// Where `body` comes from; nil when the result has no `body`.
  public var body: Body?
  /// The call delivers a stream of items (`events`, `last`, `count`); a step's
  /// `until` stops the stream instead of repeating the call.
  public var stream: Bool

  /// Makes a shape.
  public init(body: Body?, stream: Bool) {
    self.body = body
    self.stream = stream
  }

  /// Fields of a step result after `status` and `headers`, in order.
  public var fields: [String] {
    (body != nil ? ["body"] : []) + (stream ? ["events", "last", "count"] : [])
  }

  /// The items of every page of a paginated call (`--all`): a stream, no single body.
  public static let pages = EndpointResultShape(body: nil, stream: true)

  /// What a step result may hold when the endpoint is unknown (every field).
  public static let any = EndpointResultShape(body: .lastMessage, stream: true)
}

extension EndpointKind {
  /// The result shape of this kind of endpoint (the capability table's).
  public var resultShape: EndpointResultShape { capabilities.resultShape }

  /// Several calls travel in one request (a JSON-RPC batch), so a recipe step may hold a `batch`.
  public var batches: Bool { capabilities.batches }

  /// A call is one HTTP request that a dry run can show as method, URL, headers and body.
  public var isHTTPRequest: Bool { capabilities.isHTTPRequest }

  /// With no parameters declared, any message field may be given: the fields come from the
  /// service's schema (gRPC reflection or descriptors).
  public var fieldsFromSchema: Bool { capabilities.fieldsFromSchema }
}

extension Endpoint {
  /// The result shape of a call of this endpoint.
  public var resultShape: EndpointResultShape {
    // A GraphQL subscription's results are a stream of messages, as a WebSocket endpoint's.
    if graphql?.subscription == true { return EndpointKind.websocket.resultShape }
    return kind.resultShape
  }
}
