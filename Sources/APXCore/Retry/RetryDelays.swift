extension RetryPolicy {
  /// The delay before the retry that follows attempt `attempt` (1-based),
  /// before jitter: `initialDelay * multiplier^(attempt-1)`, capped at
  /// `maxDelay`. Attempts below 1 count as 1.
  public func baseDelay(afterAttempt attempt: Int) -> Double {
    if !(initialDelay > 0) { return 0 }  // also keeps 0 * infinity from making NaN
    let growth = Self.power(multiplier, max(attempt, 1) - 1)
    let delay = initialDelay * growth
    // `!(a <= b)` is also true for NaN, which then falls back to the cap.
    let capped = !(delay <= maxDelay) ? maxDelay : delay
    return Self.sanitized(capped)
  }

  /// The delay in seconds to wait after attempt `attempt` failed: the base
  /// delay, or with full jitter a uniform draw in `[0, base]` from `random`.
  public func delay(afterAttempt attempt: Int, random: inout some RandomNumberGenerator) -> Double {
    let base = baseDelay(afterAttempt: attempt)
    switch jitter {
    case .none: return base
    case .full: return base > 0 ? Double.random(in: 0...base, using: &random) : 0
    }
  }

  /// The delays between the `maxAttempts` attempts, in order: a finite
  /// sequence of `maxAttempts - 1` values drawn with `random`.
  public func delays<Random: RandomNumberGenerator>(random: Random) -> RetryDelays<Random> {
    RetryDelays(policy: self, random: random)
  }

  /// `base^exponent` by repeated squaring (APXCore does not link libm), so
  /// huge attempt numbers cost O(log n) and overflow to infinity cleanly.
  static func power(_ base: Double, _ exponent: Int) -> Double {
    var result = 1.0
    var factor = base
    var remaining = exponent
    while remaining > 0 {
      if remaining & 1 == 1 { result *= factor }
      remaining >>= 1
      if remaining > 0 { factor *= factor }
    }
    return result
  }

  /// A delay that is safe to sleep on and to draw jitter from even if the
  /// policy was never validated: NaN and negatives become 0, infinity the
  /// largest finite value.
  static func sanitized(_ seconds: Double) -> Double {
    if !(seconds > 0) { return 0 }
    return seconds.isFinite ? seconds : Double.greatestFiniteMagnitude
  }
}

/// The delays between attempts of a `RetryPolicy`, as a plain sequence:
/// element `k` (0-based) is the wait after attempt `k + 1`.
public struct RetryDelays<Random: RandomNumberGenerator>: Sequence, IteratorProtocol {
  /// The policy the delays come from.
  public let policy: RetryPolicy
  private var random: Random
  private var attempt = 1

  /// Delays for `policy`, with jitter drawn from `random`.
  public init(policy: RetryPolicy, random: Random) {
    self.policy = policy
    self.random = random
  }

  /// The next delay, or nil once `maxAttempts - 1` delays were produced.
  public mutating func next() -> Double? {
    guard attempt < policy.maxAttempts else { return nil }
    defer { attempt += 1 }
    return policy.delay(afterAttempt: attempt, random: &random)
  }

  /// The exact number of delays left.
  public var underestimatedCount: Int { Swift.max(0, policy.maxAttempts - attempt) }
}

extension RetryDelays: Sendable where Random: Sendable {}
