/// How an attempt failed, as far as retrying is concerned.
public enum RetryOutcome: Sendable, Hashable {
  /// The server answered with this HTTP status.
  case status(Int)
  /// The connection could not be made or was dropped before an answer.
  case connectionFailure
  /// The attempt ran out of time.
  case timeout
  /// A gRPC call ended with this status code (after the connection was made).
  case grpcStatus(Int)
  /// The host name does not exist: the resolver's definite answer (NXDOMAIN, "name not
  /// known"), unlike a resolver that could not be reached. Never retried: the name will not
  /// resolve on the next attempt either (curl's `--retry` does not retry it either).
  case hostNotFound
}

/// Why no further attempt is made.
public enum RetryGiveUpReason: Sendable, Hashable, CustomStringConvertible {
  /// All `maxAttempts` attempts were used.
  case attemptsExhausted(maxAttempts: Int)
  /// The status is not in the policy's `retryOnStatus`.
  case statusNotRetryable(Int)
  /// The policy does not retry connection failures.
  case connectionFailureNotRetryable
  /// The policy does not retry timeouts.
  case timeoutNotRetryable
  /// The gRPC status code is not in the policy's `retryOnGRPCCodes`.
  case grpcStatusNotRetryable(Int)
  /// Repeating the request could apply it twice (see `isRetrySafe`).
  case notSafeToRetry
  /// Waiting `wait` seconds would use up the `remaining` time budget.
  case budgetExhausted(wait: Double, remaining: Double)
  /// The host name does not exist (`RetryOutcome.hostNotFound`).
  case hostNotFound

  /// A sentence for logs and error causes.
  public var description: String {
    switch self {
    case .attemptsExhausted(let maxAttempts):
      "gave up after \(maxAttempts) attempt\(maxAttempts == 1 ? "" : "s")"
    case .statusNotRetryable(let status):
      "HTTP status \(status) is not retried"
    case .connectionFailureNotRetryable:
      "connection failures are not retried"
    case .timeoutNotRetryable:
      "timeouts are not retried"
    case .grpcStatusNotRetryable(let code):
      "gRPC status \(code) is not retried"
    case .notSafeToRetry:
      "the request is not idempotent (mark the endpoint idempotent or send an Idempotency-Key to allow retries)"
    case .hostNotFound:
      "a host name that does not resolve will not resolve on another attempt"
    case .budgetExhausted(_, let remaining) where !(remaining > 0):
      // The attempt itself used the budget up (or ran past it): nothing is left to speak of.
      "no time is left of the time budget"
    case .budgetExhausted(let wait, let remaining):
      "waiting \(RetryGiveUpReason.seconds(wait)) would exceed the remaining time budget of \(RetryGiveUpReason.seconds(remaining))"
    }
  }

  private static func seconds(_ value: Double) -> String {
    let millis = (value * 1000).rounded()
    guard millis.isFinite, abs(millis) < 1e15 else { return "\(value)s" }
    let sign = millis < 0 ? "-" : ""
    let whole = Int(abs(millis))
    let fraction = whole % 1000
    if fraction == 0 { return "\(sign)\(whole / 1000)s" }
    var digits = String(fraction)
    while digits.count < 3 { digits = "0" + digits }
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(sign)\(whole / 1000).\(digits)s"
  }
}

/// What to do after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
  /// Wait this many seconds, then make the next attempt.
  case retry(after: Double)
  /// Stop and report the failure.
  case giveUp(RetryGiveUpReason)
}

extension RetryPolicy {
  /// Decides whether attempt `attempt` (1-based), which ended with `outcome`,
  /// is followed by another one, and after how long.
  ///
  /// Checks, in order: the outcome is one the policy retries; the request is
  /// safe to repeat (`retrySafe`, from `isRetrySafe(method:idempotent:hasIdempotencyKey:)`);
  /// an attempt is left; the wait fits the budget. The wait is the server's
  /// `retryAfter` (seconds, from `RetryAfter.seconds(from:now:)`) capped at
  /// `maxDelay` and never jittered, else the policy's jittered backoff.
  ///
  /// - Parameters:
  ///   - remainingBudget: seconds left of the caller's overall timeout, or nil
  ///     for none. A wait that would use it all up (`wait >= remaining`)
  ///     gives up, since no time would be left for the attempt itself.
  ///   - random: the source of jitter.
  public func decide(
    afterAttempt attempt: Int, outcome: RetryOutcome, retrySafe: Bool, retryAfter: Double? = nil,
    remainingBudget: Double? = nil, random: inout some RandomNumberGenerator
  ) -> RetryDecision {
    switch outcome {
    case .status(let status):
      if !retryOnStatus.contains(status) { return .giveUp(.statusNotRetryable(status)) }
    case .connectionFailure:
      if !retryOnConnectionFailure { return .giveUp(.connectionFailureNotRetryable) }
    case .timeout:
      if !retryOnTimeout { return .giveUp(.timeoutNotRetryable) }
    case .grpcStatus(let code):
      if !retryOnGRPCCodes.contains(code) { return .giveUp(.grpcStatusNotRetryable(code)) }
    case .hostNotFound:
      return .giveUp(.hostNotFound)
    }
    if !retrySafe { return .giveUp(.notSafeToRetry) }
    if attempt >= maxAttempts { return .giveUp(.attemptsExhausted(maxAttempts: maxAttempts)) }

    let wait: Double
    if let retryAfter, !retryAfter.isNaN {
      wait = Self.sanitized(min(retryAfter, maxDelay))
    } else {
      wait = delay(afterAttempt: attempt, random: &random)
    }
    if let remaining = remainingBudget, !(wait < remaining) {
      return .giveUp(.budgetExhausted(wait: wait, remaining: remaining))
    }
    return .retry(after: wait)
  }
}
