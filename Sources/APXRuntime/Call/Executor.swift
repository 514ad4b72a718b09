import APXCore
import NIOCore
import Synchronization

/// Runs calls of every kind through one pipeline.
///
/// DESIGN: a call goes **resolve -> auth -> retry -> transport**, the same for
/// every protocol:
///
/// 1. *Transport* (`Transport`: `RESTCall`, `SSEConnection`, `GRPCCall`,
///    `JSONRPCCall`) turns one resolved attempt into `CallEvent`s and throws an
///    `AttemptFailure` that says how it failed (HTTP status, gRPC code,
///    connection failure, timeout, or "never repeat"). It knows nothing of
///    tokens or retry policy. `TransportCatalog` is the one place that picks
///    the transport of an endpoint kind; the executor names none.
/// 2. *Retry* (`retrying`) asks the one policy engine (`RetryPolicy.decide`, in
///    APXCore) whether a failed attempt is repeated, reports `.retrying`, waits
///    on the injected clock within the call's `--timeout`, and says why it gave up.
/// 3. *Auth* (`perform`) resolves each attempt with `Credentials`; when the
///    server refuses them (401, UNAUTHENTICATED) and the auth can be refreshed
///    (OAuth2, token command), it gets a new token once and replays.
///
/// Protocol-specific layers sit above the pipeline, not inside it: an SSE
/// watch (`SSEWatch`) reconnects with `Last-Event-ID`, drops duplicates and
/// falls back to polling, sending each connection through `authorized`.
/// Every call ends with one `.finished` event. Sessions (the HTTP session, the
/// gRPC clients and schema cache) are given to the executor and live for the
/// whole run (a command or a recipe).
public struct Executor: Sendable {
  public let session: HTTPSession
  /// The run's gRPC clients and schemas; nil for runs that make no gRPC call.
  public let grpc: GRPCSession?
  /// The process environment, for `${env:NAME}` templates.
  public let environment: [String: String]

  /// Applies credentials to each request.
  public let auth: AuthApplier

  /// Time source and sleeper for retry waits (injected by tests).
  public let clock: any RetryClock

  /// Where every exchange of the run is recorded (`--har FILE`), nil for none.
  public var har: HARLog?

  /// Makes an executor for one run.
  ///
  /// - Parameters:
  ///   - grpc: the run's gRPC session (`GRPCSession.with`); a gRPC call without one fails.
  ///   - tokens: fetches OAuth2 / `token_command` tokens (the CLI passes a `TokenManager` on the
  ///     user's token store); nil gives a `TokenManager` that keeps tokens in memory for this executor.
  ///   - tokenOverride: a bearer token from `--token-stdin`, used instead of the registry's auth.
  ///   - clock: the clock retries wait on (and token expiry, for the default token manager).
  public init(
    session: HTTPSession, grpc: GRPCSession? = nil, environment: [String: String], tokens: (any TokenSource)? = nil,
    tokenOverride: String? = nil, clock: any RetryClock = SystemRetryClock()
  ) {
    self.session = session
    self.grpc = grpc
    self.environment = environment
    let source = tokens ?? TokenManager(session: session, environment: environment, store: nil, clock: clock)
    self.auth = AuthApplier(environment: environment, tokens: source, tokenOverride: tokenOverride)
    self.clock = clock
  }

  /// Performs one call; errors carry their exit status. The last event is `.finished`.
  public func call(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    let sink = har.map { HARTee(recorder: $0.recorder(), downstream: sink) } ?? sink
    let attempts = AttemptCounter()
    do {
      // The kind's transport (or, for SSE, the watch over it) through this pipeline.
      let outcome = try await TransportCatalog.route(for: request.endpoint.kind).call(
        request, executor: self, attempts: attempts, sink: sink)
      try sink.receive(.finished(status: outcome.status, attempts: outcome.attempts, failure: nil))
      return outcome
    } catch {
      let error = request.targetIsURL ? Self.aboutTheURL(error, url: request.baseURL) : error
      try? sink.receive(.finished(status: nil, attempts: attempts.value, failure: error as? APXError))
      throw error
    }
  }

  /// A refused connection's or an unresolved host's hint for a call to a URL the user typed:
  /// the URL names the server, so `--base-url`, `--env` and `--demo` (which the hint suggests
  /// for registry calls) cannot help; its host, port and scheme can.
  public static func aboutTheURL(_ error: any Error, url: String) -> any Error {
    guard var error = error as? APXError, error.hint != nil else { return error }
    switch error.reason {
    case .hostNotFound:
      error.hint = NetworkErrorMapper.hostNotFoundAdvice(in: "the URL")
    case .connectionRefused:
      let origin = NetworkErrorMapper.origin(url)
      let scheme = origin.prefix { $0 != ":" }.lowercased()
      let other: String =
        switch scheme {
        case "https": "http://"
        case "http": "https://"
        case "grpcs": "grpc://"
        default: "grpcs://"
        }
      error.hint =
        "nothing accepted the connection at \(origin): is the server running? Check the host and port in the URL, "
        + "and its scheme (\(other) if the server speaks \(other.hasSuffix("s://") ? "TLS" : "plaintext"))"
    default:
      break
    }
    return error
  }

  /// Performs several calls of a kind that batches (`EndpointKind.batches`: JSON-RPC) as one
  /// request: the answers are matched by id and printed as one array in request order (a
  /// notification has no answer). The calls must go to one URL; the first one's retry
  /// policy and timeout apply. Ends with one `.finished` event.
  public func call(batch requests: [CallRequest], sink: any CallEventSink) async throws -> CallOutcome {
    let sink = har.map { HARTee(recorder: $0.recorder(), downstream: sink) } ?? sink
    let attempts = AttemptCounter()
    do {
      guard let first = requests.first else { throw APXError(.usage, "a batch needs at least one call") }
      let outcome = try await TransportCatalog.route(for: first.endpoint.kind).call(
        batch: requests, executor: self, attempts: attempts, sink: sink)
      try sink.receive(.finished(status: outcome.status, attempts: outcome.attempts, failure: nil))
      return outcome
    } catch {
      try? sink.receive(.finished(status: nil, attempts: attempts.value, failure: error as? APXError))
      throw error
    }
  }

  /// The retry policy in force: the endpoint's over the API's over the
  /// defaults, with `--retry N` / `--no-retry` on top.
  func retryPolicy(_ request: CallRequest) throws(APXError) -> RetryPolicy {
    try RetryPolicy.effective(
      api: request.api.retry, endpoint: request.endpoint.retry, maxAttemptsOverride: request.maxAttemptsOverride)
  }

  /// The auth layer over the retry layer over `transport`: resolves the
  /// attempt with the call's credentials, runs it with retries, and when the
  /// server refuses the credentials, refreshes them once and replays.
  func perform<T: Transport>(
    _ transport: T, _ request: CallRequest, policy: RetryPolicy, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let timeout = request.timeout ?? request.endpoint.timeout
    let budget = RetryBudget(clock: clock, timeout: timeout, url: request.baseURL)
    do {
      return try await authorized(transport, request, timeout: timeout, sink: sink) { attempt, first, canReplay in
        try await retrying(
          transport, attempt, policy: policy, first: first, budget: budget, deferRejection: canReplay,
          attempts: attempts, sink: sink)
      }
    } catch let failure as AttemptFailure {
      throw failure.error
    }
  }

  /// The auth layer: resolves an attempt with the credentials in force and
  /// runs `body` with it (its first attempt number, and whether a refused
  /// credential will be replayed). When `body` fails because the server
  /// refused the credentials and they can be refreshed, gets new ones (once)
  /// and runs `body` again with the same attempt number: a replay is not a retry.
  ///
  /// - Throws: the last `AttemptFailure` when no replay helps (the caller
  ///   decides what it means), or any other error of `body` as it is.
  func authorized<T: Transport>(
    _ transport: T, _ request: CallRequest, timeout: Double?, sink: any CallEventSink,
    _ body: (T.Attempt, Int, Bool) async throws -> CallOutcome
  ) async throws -> CallOutcome {
    var credentials = Credentials(applier: auth, request: request)
    var attempt = try await transport.resolve(request, credentials: credentials)
    var replayed = false
    var first = 1
    while true {
      let replayable: Bool = if case .notReplayable = transport.retrySafety(of: attempt) { false } else { true }
      let canReplay = !replayed && replayable && credentials.canRefresh
      do {
        return try await body(attempt, first, canReplay)
      } catch let failure as AttemptFailure {
        guard failure.credentialsRejected, canReplay else { throw failure }
        replayed = true
        first = failure.attempt ?? first
        credentials.rejectedToken = transport.presentedToken(in: attempt)
        do {
          attempt = try await transport.resolve(request, credentials: credentials)
        } catch {
          throw NetworkErrorMapper.map(error, url: request.baseURL, timeout: timeout)
        }
        try sink.receive(
          .note("\(failure.error.message): the credentials were refused; signed in again, replaying the call"))
      }
    }
  }

  /// The retry layer: sends `attempt` until it succeeds or the policy gives up.
  ///
  /// - Parameter deferRejection: a refused credential is thrown as it is, for
  ///   the auth layer to refresh, instead of being decided on as a failure.
  /// - Throws: the last `AttemptFailure` (its error says why apx gave up), or
  ///   the sink's own error as it is.
  func retrying<T: Transport>(
    _ transport: T, _ attempt: T.Attempt, policy: RetryPolicy, first: Int, budget: RetryBudget,
    deferRejection: Bool, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let safety = transport.retrySafety(of: attempt)
    var number = first
    var random = SystemRandomNumberGenerator()
    while true {
      attempts.value = number
      var failure: AttemptFailure
      do {
        var outcome = try await transport.send(
          attempt, context: AttemptContext(number: number, timeout: budget.timeout, deadline: budget.attemptDeadline()),
          sink: sink)
        outcome.attempts = number
        return outcome
      } catch let error as AttemptFailure {
        failure = error
      }
      failure.attempt = number
      if failure.credentialsRejected && deferRejection { throw failure }
      guard let outcome = failure.outcome else { throw failure }
      let now = clock.now()
      let decision = policy.decide(
        afterAttempt: number, outcome: outcome,
        retrySafe: safety == .safe || (safety == .notIdempotent && failure.undelivered),
        retryAfter: failure.retryAfter.flatMap { RetryAfter.seconds(from: $0, now: now) },
        remainingBudget: budget.remaining(now: now), random: &random)
      switch decision {
      case .retry(let wait):
        do {
          try sink.receive(.retrying(attempt: number + 1, after: wait, reason: failure.error.message))
          try await clock.sleep(seconds: wait)
        } catch {
          throw AttemptFailure(NetworkErrorMapper.map(error, url: budget.url, timeout: budget.timeout))
        }
        number += 1
      case .giveUp(let reason):
        failure.error = Self.gaveUp(failure.error, reason: reason, attempts: number, safety: safety)
        throw failure
      }
    }
  }

  /// The final error after the last attempt, saying why apx stopped trying when that helps.
  static func gaveUp(_ error: APXError, reason: RetryGiveUpReason, attempts: Int, safety: AttemptSafety) -> APXError {
    var error = error
    switch reason {
    case .attemptsExhausted:
      if attempts > 1 { error.message += " (\(reason))" }
    case .budgetExhausted:
      error.message += " (\(reason): gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"))"
      error.hint = "raise --timeout, or lower the retry delays"
    case .notSafeToRetry:
      error.retryVerdict =
        if case .notReplayable(let text) = safety { "not retried: \(text)" } else { "not retried: \(reason)" }
    case .hostNotFound:
      error.retryVerdict = "not retried: \(reason)"
    case .statusNotRetryable, .connectionFailureNotRetryable, .timeoutNotRetryable, .grpcStatusNotRetryable:
      if attempts > 1 { error.message += " (after \(attempts) attempts)" }
    }
    return error
  }
}

/// The call's overall time limit, shared by every attempt and wait.
struct RetryBudget: Sendable {
  let clock: any RetryClock
  let timeout: Double?
  let start: Double
  /// Where the call goes, for messages.
  let url: String

  init(clock: any RetryClock, timeout: Double?, url: String) {
    self.clock = clock
    self.timeout = timeout
    self.url = url
    self.start = clock.now()
  }

  /// Seconds left at `now`, nil without a limit.
  func remaining(now: Double) -> Double? { timeout.map { $0 - (now - start) } }

  /// The deadline of an attempt that starts at `start`: what is left of the budget on the
  /// injected clock (so a test clock's waits count), as the NIO deadline the transports wait on.
  func attemptDeadline(from start: NIODeadline = .now()) -> NIODeadline {
    guard let left = remaining(now: clock.now()) else { return .distantFuture }
    return start + .milliseconds(DurationConversion.milliseconds(max(0, left)))
  }
}

/// The number of the attempt in progress, for the final event of a failed call.
final class AttemptCounter: Sendable {
  private let current = Mutex(0)

  var value: Int {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }
}
