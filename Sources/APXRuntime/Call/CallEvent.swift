public import APXCore

/// What happens during one call, whatever its protocol. Formatters, progress
/// display and recipes consume these and never care which transport made them.
public enum CallEvent: Sendable {
  /// A request went out (headers already masked for display).
  case requestSent(method: String, url: String, headers: [HeaderField], attempt: Int)
  /// What the request just sent carries as its body (secrets masked), for `--har`; sent after
  /// `requestSent` by requests that have a body.
  case requestBody(RequestBodySummary)
  /// The next request goes through this proxy (its password masked); sent before its
  /// `requestSent`, only when a proxy is used.
  case proxy(String)
  /// Bytes of a streamed request body (a file, stdin, a multipart upload) sent so far, and
  /// the body's length when known. Sent as each chunk goes out, before `responseHead`.
  case bodySent(bytes: Int, total: Int?)
  /// Response status line and headers arrived (gRPC: initial metadata, status 200).
  case responseHead(status: Int, version: String, headers: [HeaderField])
  /// Raw body bytes (REST), as they arrive (not copied out of the network buffer).
  case bodyChunk(BodyChunk)
  /// The body is complete.
  case bodyEnd
  /// One decoded stream item: an SSE event or a gRPC message, as apx prints it.
  case message(JSONValue)
  /// The answer is exactly one message, not a stream (gRPC unary and client streaming):
  /// printers show it as a document, as they show a REST body. Sent after `responseHead`.
  case singleAnswer
  /// gRPC trailing metadata.
  case trailers([HeaderField])
  /// Waiting before another attempt.
  case retrying(attempt: Int, after: Double, reason: String)
  /// A stream dropped and will be reopened.
  case reconnecting(after: Double, reason: String, lastEventID: String?)
  /// The stream kept failing; polling another endpoint instead.
  case fellBackToPolling(endpoint: String, interval: Double)
  /// Progress of a long-running job, from the endpoint's declared progress fields.
  case progress(fraction: Double?, done: Double?, total: Double?)
  /// A human-readable note for stderr (warnings, state changes).
  case note(String)
  /// The secrets of the attempt just sent, for what keeps answers beside the call's output: an
  /// HTTP archive masks the bodies it records with them (a server may echo a credential).
  case secrets(SecretMask)
  /// A WebSocket frame went out (`sent`) or came in: its opcode and payload size for `-v`, and
  /// its payload (shared, not copied) for `--har`'s `_webSocketMessages`.
  case webSocketFrame(sent: Bool, opcode: WebSocketFrameKind, bytes: Int, payload: BodyChunk)
  /// The transport has handed on everything it received so far (one network
  /// chunk's worth of stream items): a good moment to flush output. Streams
  /// that send it let printers flush once per chunk instead of once per item.
  case batchEnd
  /// The call is over: the last event of every call, whatever its protocol.
  /// `status` is the final answer's (nil when the call failed before one),
  /// `attempts` how many attempts were made (SSE: connections), `failure` the
  /// error the call ends with (nil on success, or when it is not apx's own).
  case finished(status: Int?, attempts: Int, failure: APXError?)
}

/// Receives call events in order. Implemented by the CLI's output and by the
/// recipe runner; called inline on the task that runs the call, so an
/// implementation must not block for long.
public protocol CallEventSink: AnyObject, Sendable {
  /// Handles one event; throwing stops the call (e.g. stdout closed).
  func receive(_ event: CallEvent) throws
}

/// A WebSocket frame's opcode, as `-v` names it.
public enum WebSocketFrameKind: String, Sendable {
  case text, binary, ping, pong, close, continuation
}
