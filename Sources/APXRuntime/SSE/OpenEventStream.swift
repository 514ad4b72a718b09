import APXCore
import AsyncHTTPClient
import NIOCore

/// An answer that turned out to be an event stream (`Content-Type: text/event-stream`),
/// still open: the REST transport hands it to the SSE layer (`SSEWatch.follow`) instead of
/// printing it as a body, so any REST call (an ad-hoc URL, or a registry endpoint whose
/// server answers JSON or events depending on the request) is followed as a stream.
struct OpenEventStream: Sendable {
  /// The answer: its head already reported to the sink and checked (2xx), its body unread.
  var response: HTTPClientResponse
  /// The request that got it, after redirects.
  var plan: HTTPRequestPlan
  /// Whether redirects were followed to get it (reconnections then go to `plan.url`).
  var redirected: Bool
  /// The secrets of the request, for messages.
  var mask: SecretMask
  /// The number of the attempt that got it.
  var attempt: Int
  /// The call's overall deadline (`.distantFuture` without `--timeout`).
  var deadline: NIODeadline
  /// Why the request must not be sent again to reconnect (a POST that is not idempotent, a
  /// body read from stdin), or nil when a dropped stream is reconnected with `Last-Event-ID`.
  var noReconnect: String?
}
