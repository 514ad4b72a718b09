public import APXCore
public import NIOCore

/// Moves one resolved attempt of a call over the wire and reports what
/// happens as `CallEvent`s. REST (`RESTCall`), SSE (`SSEConnection`), gRPC
/// (`GRPCCall`) and JSON-RPC (`JSONRPCCall`) implement it.
///
/// A transport knows nothing of tokens or retry policy: the `Executor`
/// resolves each attempt with the `Credentials` the auth layer chose, decides
/// about refreshes, replays and retries from the `AttemptFailure`s a transport
/// throws, and reports `.retrying` and the final `.finished` itself.
public protocol Transport: Sendable {
  /// One attempt, ready to send: the request with templates resolved and credentials applied.
  associatedtype Attempt: Sendable

  /// Builds the attempt for `request`, signed with `credentials`. Called again
  /// with fresh credentials when the server refused the previous ones.
  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> Attempt

  /// Whether repeating `attempt` cannot apply it twice, for the retry layer.
  func retrySafety(of attempt: Attempt) -> AttemptSafety

  /// The bearer token `attempt` presented, so a refresh replaces that one (nil: none).
  func presentedToken(in attempt: Attempt) -> String?

  /// Sends one attempt and streams its answer to `sink`.
  ///
  /// - Throws: `AttemptFailure` when the attempt failed, saying how (for the
  ///   retry and auth layers) and what the user sees if nothing else is tried;
  ///   any other error (the sink's, a stop condition's) ends the call as it is.
  func send(_ attempt: Attempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome
}

/// What the pipeline tells a transport about the attempt it is sending.
public struct AttemptContext: Sendable {
  /// 1 for the first attempt.
  public var number: Int
  /// The call's overall time limit in seconds (all attempts and waits), for messages.
  public var timeout: Double?
  /// When the overall time limit runs out (`.distantFuture` without one).
  public var deadline: NIODeadline

  public init(number: Int, timeout: Double?, deadline: NIODeadline) {
    self.number = number
    self.timeout = timeout
    self.deadline = deadline
  }
}

/// Whether an attempt may be sent again.
public enum AttemptSafety: Sendable, Equatable {
  /// Sending it twice cannot apply it twice.
  case safe
  /// It may change state on the server (a POST of a non-idempotent endpoint).
  case notIdempotent
  /// It cannot be sent again at all; the text says why (e.g. a body read from stdin).
  case notReplayable(String)
}

/// How one attempt failed.
public struct AttemptFailure: Error, Sendable {
  /// What the user sees if no further attempt is made.
  public var error: APXError
  /// How the attempt failed, for the retry decision; nil when it must not be
  /// repeated (a usage error, a TLS certificate that failed verification, or
  /// an answer that already started going to the sink).
  public var outcome: RetryOutcome?
  /// The raw `Retry-After` value of a failed answer.
  public var retryAfter: String?
  /// The server refused the credentials (HTTP 401, gRPC UNAUTHENTICATED)
  /// before anything was handed on: fresh credentials and a replay may help.
  public var credentialsRejected: Bool
  /// The number of the attempt that failed (set by the retry layer).
  public var attempt: Int?
  /// The request surely never reached the server's handler (no connection was made, or
  /// nothing of it was written): even a request that is not idempotent may then be sent again.
  public var undelivered = false

  public init(
    _ error: APXError, outcome: RetryOutcome? = nil, retryAfter: String? = nil, credentialsRejected: Bool = false
  ) {
    self.error = error
    self.outcome = outcome
    self.retryAfter = retryAfter
    self.credentialsRejected = credentialsRejected
  }
}
