import APXCore
import Synchronization

/// The sink a recipe step's call reports to: keeps what the step's result
/// needs (status, headers, the body, stream items as asked) and stops a
/// stream once its `until` condition holds.
///
/// Stream items are forwarded to `onItem` as they arrive (for the journal,
/// `--events` and progress), and only accumulated when the recipe reads
/// `events`; `last` and `count` are always kept. Retries, reconnects, a
/// fallback to polling, progress and notes go to `onNote` as they happen.
final class StepCapture: CallEventSink {
  /// Thrown to end a stream whose `until` condition held; the runner treats it as success.
  struct UntilReached: Error {}

  struct State {
    var status: Int?
    var headers: [HeaderField] = []
    var body: [UInt8] = []
    var events: [JSONValue] = []
    var last: JSONValue?
    var count = 0
    var lastEventID: String?
    /// Attempts the call made (from its final event).
    var attempts = 0
  }

  /// Largest body kept in memory for one step.
  static let bodyLimit = 64 * 1024 * 1024

  private let state: Mutex<State>
  private let keepBody: Bool
  private let keepEvents: Bool
  private let until: (@Sendable (JSONValue) throws -> Bool)?
  private let onItem: (@Sendable (JSONValue) -> Void)?
  private let onNote: (@Sendable (RecipeCallNote) -> Void)?
  private let onUpload: (@Sendable (_ bytes: Int, _ total: Int?) -> Void)?
  private let transportLog: (@Sendable (CallEvent) -> Void)?

  /// Makes a capture; `resumed` holds stream items journaled before an interruption.
  init(
    keepBody: Bool, keepEvents: Bool, resumed: [JSONValue] = [], resumedEventID: String? = nil,
    until: (@Sendable (JSONValue) throws -> Bool)?, onItem: (@Sendable (JSONValue) -> Void)?,
    onNote: (@Sendable (RecipeCallNote) -> Void)? = nil,
    onUpload: (@Sendable (_ bytes: Int, _ total: Int?) -> Void)? = nil,
    transportLog: (@Sendable (CallEvent) -> Void)? = nil
  ) {
    var initial = State()
    initial.count = resumed.count
    initial.last = resumed.last
    initial.lastEventID = resumedEventID
    if keepEvents { initial.events = resumed }
    self.state = Mutex(initial)
    self.keepBody = keepBody
    self.keepEvents = keepEvents
    self.until = until
    self.onItem = onItem
    self.onNote = onNote
    self.onUpload = onUpload
    self.transportLog = transportLog
  }

  func receive(_ event: CallEvent) throws {
    if let transportLog {
      switch event {
      case .requestSent, .responseHead, .trailers, .proxy, .webSocketFrame: transportLog(event)
      default: break
      }
    }
    switch event {
    case .responseHead(let status, _, let headers):
      state.withLock {
        $0.status = status
        $0.headers = headers
      }
    case .bodyChunk(let bytes):
      guard keepBody else { return }
      try state.withLock { s throws(APXError) in
        guard s.body.count + bytes.count <= Self.bodyLimit else {
          throw APXError(
            .expectation, "the response body is larger than \(Self.bodyLimit / 1_048_576) MB",
            hint: "a recipe keeps bodies in memory; call this endpoint with `apx call` and stream it instead")
        }
        bytes.withUnsafeBytes { s.body.append(contentsOf: $0) }
      }
    case .message(let item):
      state.withLock { s in
        s.count += 1
        s.last = item
        if keepEvents { s.events.append(item) }
        if case .string(let id)? = item["id"], !id.isEmpty { s.lastEventID = id }
      }
      onItem?(item)
      if let until, try until(item) { throw UntilReached() }
    case .retrying, .reconnecting, .fellBackToPolling, .progress, .note:
      if let note = RecipeCallNote(event) { onNote?(note) }
    case .bodySent(let bytes, let total):
      onUpload?(bytes, total)
    case .finished(let status, let attempts, _):
      state.withLock {
        $0.attempts = attempts
        // The final answer's status: after a fallback to polling it is the last
        // poll's, not the refused stream's that the last response head carried.
        if let status { $0.status = status }
      }
    default:
      return
    }
  }

  /// Attempts the step's call made (0 before it finished).
  var attempts: Int { state.withLock { $0.attempts } }

  /// The last SSE event id seen (for resuming a stream).
  var lastEventID: String? { state.withLock { $0.lastEventID } }

  /// The step's call result, holding what the endpoint's result shape says:
  /// `body` from the response bytes or the last message, the stream's items.
  func result(shape: EndpointResultShape, status fallback: Int?) -> RecipeCallResult {
    let s = state.withLock { $0 }
    let body: JSONValue? =
      switch shape.body {
      case .responseBytes?: Self.parseBody(s.body)
      case .lastMessage?: s.last ?? .null
      case nil: nil
      }
    return RecipeCallResult(
      status: s.status ?? fallback, headers: s.headers, body: body,
      stream: shape.stream ? RecipeCallResult.Stream(events: s.events, last: s.last, count: s.count) : nil)
  }

  /// JSON when the body is JSON, else its text; an empty body is null.
  static func parseBody(_ bytes: [UInt8]) -> JSONValue {
    if bytes.isEmpty { return .null }
    if let value = try? JSONParser.parse(bytes) { return value }
    return .string(String(decoding: bytes, as: UTF8.self))
  }
}
