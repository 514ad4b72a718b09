import Testing

@testable import APXCore

/// The retry-or-give-up decision after a failed attempt.
@Suite struct RetryDecisionTests {
  /// 4 attempts, 1 s doubling to 8 s, no jitter: delays are predictable.
  static let policy: RetryPolicy = {
    var policy = RetryPolicy.standard
    policy.maxAttempts = 4
    policy.initialDelay = 1
    policy.maxDelay = 8
    policy.jitter = .none
    return policy
  }()

  func decide(
    _ outcome: RetryOutcome, attempt: Int = 1, policy: RetryPolicy = RetryDecisionTests.policy,
    safe: Bool = true, retryAfter: Double? = nil, budget: Double? = nil
  ) -> RetryDecision {
    var random = SeededRandom(seed: 11)
    return policy.decide(
      afterAttempt: attempt, outcome: outcome, retrySafe: safe, retryAfter: retryAfter, remainingBudget: budget,
      random: &random)
  }

  @Test(arguments: [408, 425, 429, 500, 502, 503, 504])
  func defaultRetryStatusesAreRetried(_ status: Int) {
    #expect(decide(.status(status)) == .retry(after: 1))
  }

  @Test(arguments: [200, 201, 301, 400, 401, 403, 404, 409, 422, 501, 505])
  func otherStatusesAreNot(_ status: Int) {
    #expect(decide(.status(status)) == .giveUp(.statusNotRetryable(status)))
  }

  @Test func customStatusSet() {
    var policy = Self.policy
    policy.retryOnStatus = [409]
    #expect(decide(.status(409), policy: policy) == .retry(after: 1))
    #expect(decide(.status(503), policy: policy) == .giveUp(.statusNotRetryable(503)))
  }

  @Test func connectionFailuresAndTimeoutsFollowTheirFlags() {
    #expect(decide(.connectionFailure) == .retry(after: 1))
    #expect(decide(.timeout) == .retry(after: 1))
    var policy = Self.policy
    policy.retryOnConnectionFailure = false
    policy.retryOnTimeout = false
    #expect(decide(.connectionFailure, policy: policy) == .giveUp(.connectionFailureNotRetryable))
    #expect(decide(.timeout, policy: policy) == .giveUp(.timeoutNotRetryable))
  }

  /// A name the resolver says does not exist will not exist on the next attempt (curl's `--retry`
  /// does not retry it either), whatever the policy allows for connection failures.
  @Test func aHostThatDoesNotExistIsNeverRetried() {
    #expect(decide(.hostNotFound) == .giveUp(.hostNotFound))
    #expect(decide(.hostNotFound, attempt: 1, budget: 100) == .giveUp(.hostNotFound))
    #expect(RetryGiveUpReason.hostNotFound.description.contains("does not resolve"))
  }

  @Test func unsafeRequestsAreNotRetried() {
    #expect(decide(.status(503), safe: false) == .giveUp(.notSafeToRetry))
    #expect(decide(.connectionFailure, safe: false) == .giveUp(.notSafeToRetry))
    // The outcome is checked first: a 404 is reported as such, not as unsafe.
    #expect(decide(.status(404), safe: false) == .giveUp(.statusNotRetryable(404)))
  }

  @Test func attemptsRunOutAtMaxAttempts() {
    #expect(decide(.status(503), attempt: 1) == .retry(after: 1))
    #expect(decide(.status(503), attempt: 2) == .retry(after: 2))
    #expect(decide(.status(503), attempt: 3) == .retry(after: 4))
    #expect(decide(.status(503), attempt: 4) == .giveUp(.attemptsExhausted(maxAttempts: 4)))
    #expect(decide(.status(503), attempt: 9) == .giveUp(.attemptsExhausted(maxAttempts: 4)))
    #expect(decide(.status(503), policy: RetryPolicy.never) == .giveUp(.statusNotRetryable(503)))
    var once = Self.policy
    once.maxAttempts = 1
    #expect(decide(.status(503), policy: once) == .giveUp(.attemptsExhausted(maxAttempts: 1)))
  }

  @Test func aWholeRetryLoopProducesTheBackoffSequence() throws {
    let policy = try RetryPolicy(maxAttempts: 5, initialDelay: 0.5, multiplier: 3, maxDelay: 6, jitter: .none)
    var random = SeededRandom(seed: 5)
    var waits: [Double] = []
    var attempt = 1
    var final: RetryDecision?
    while final == nil {
      switch policy.decide(afterAttempt: attempt, outcome: .status(502), retrySafe: true, random: &random) {
      case .retry(let after):
        waits.append(after)
        attempt += 1
      case .giveUp(let reason):
        final = .giveUp(reason)
      }
    }
    #expect(waits == [0.5, 1.5, 4.5, 6])
    #expect(final == .giveUp(.attemptsExhausted(maxAttempts: 5)))
  }

  @Test func jitteredDecisionsMatchTheJitteredDelays() throws {
    let policy = try RetryPolicy(maxAttempts: 6, initialDelay: 1, maxDelay: 20, jitter: .full)
    var forDecisions = SeededRandom(seed: 77)
    var decisions: [RetryDecision] = []
    for attempt in 1...5 {
      decisions.append(
        policy.decide(afterAttempt: attempt, outcome: .timeout, retrySafe: true, random: &forDecisions))
    }
    let delays = Array(policy.delays(random: SeededRandom(seed: 77)))
    #expect(decisions == delays.map { .retry(after: $0) })
  }

  @Test func retryAfterIsUsedWithoutJitter() throws {
    var jittered = Self.policy
    jittered.jitter = .full
    #expect(decide(.status(429), policy: jittered, retryAfter: 3) == .retry(after: 3))
    #expect(decide(.status(503), retryAfter: 0) == .retry(after: 0))
    #expect(decide(.status(503), attempt: 3, retryAfter: 0.25) == .retry(after: 0.25))
  }

  @Test func retryAfterLargerThanMaxDelayIsCapped() {
    #expect(decide(.status(503), retryAfter: 120) == .retry(after: 8))
    #expect(decide(.status(503), retryAfter: .infinity) == .retry(after: 8))
  }

  @Test func odityRetryAfterValuesAreSafe() {
    #expect(decide(.status(503), retryAfter: -4) == .retry(after: 0))
    #expect(decide(.status(503), retryAfter: .nan) == .retry(after: 1))  // ignored: backoff
  }

  @Test func retryAfterDoesNotOverrideOtherRules() {
    #expect(decide(.status(404), retryAfter: 1) == .giveUp(.statusNotRetryable(404)))
    #expect(decide(.status(503), attempt: 4, retryAfter: 1) == .giveUp(.attemptsExhausted(maxAttempts: 4)))
  }

  @Test func waitsMustFitTheRemainingBudget() {
    #expect(decide(.status(503), attempt: 3, budget: 10) == .retry(after: 4))
    #expect(decide(.status(503), attempt: 3, budget: 4) == .giveUp(.budgetExhausted(wait: 4, remaining: 4)))
    #expect(decide(.status(503), attempt: 3, budget: 3.5) == .giveUp(.budgetExhausted(wait: 4, remaining: 3.5)))
    #expect(decide(.status(503), retryAfter: 0, budget: 0) == .giveUp(.budgetExhausted(wait: 0, remaining: 0)))
    #expect(decide(.status(503), budget: -2) == .giveUp(.budgetExhausted(wait: 1, remaining: -2)))
    #expect(decide(.status(503), retryAfter: 30, budget: 9) == .retry(after: 8))  // capped wait fits
    #expect(decide(.status(503), retryAfter: 30, budget: 5) == .giveUp(.budgetExhausted(wait: 8, remaining: 5)))
    #expect(decide(.status(503), budget: nil) == .retry(after: 1))
  }

  @Test func reasonsReadWell() {
    #expect(RetryGiveUpReason.attemptsExhausted(maxAttempts: 4).description == "gave up after 4 attempts")
    #expect(RetryGiveUpReason.attemptsExhausted(maxAttempts: 1).description == "gave up after 1 attempt")
    #expect(RetryGiveUpReason.statusNotRetryable(404).description == "HTTP status 404 is not retried")
    #expect(RetryGiveUpReason.notSafeToRetry.description.contains("Idempotency-Key"))
    #expect(
      RetryGiveUpReason.budgetExhausted(wait: 8, remaining: 2.25).description
        == "waiting 8s would exceed the remaining time budget of 2.25s")
    // A budget the attempt overran is used up, never "-0.125s" left.
    for remaining in [-0.125, 0] {
      #expect(
        RetryGiveUpReason.budgetExhausted(wait: 0.5, remaining: remaining).description
          == "no time is left of the time budget")
    }
  }
}
