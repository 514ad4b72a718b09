import Testing

@testable import APXCore

/// Backoff delays as a plain sequence, with seeded jitter.
@Suite struct RetryDelayTests {
  @Test func exponentialBackoffCappedAtMaxDelay() throws {
    let policy = try RetryPolicy(maxAttempts: 7, initialDelay: 0.5, multiplier: 2, maxDelay: 5, jitter: .none)
    #expect(Array(policy.delays(random: SeededRandom(seed: 1))) == [0.5, 1, 2, 4, 5, 5])
  }

  @Test func constantAndFractionalMultipliers() throws {
    let constant = try RetryPolicy(maxAttempts: 4, initialDelay: 3, multiplier: 1, maxDelay: 10, jitter: .none)
    #expect(Array(constant.delays(random: SeededRandom(seed: 1))) == [3, 3, 3])
    let slow = try RetryPolicy(maxAttempts: 5, initialDelay: 1, multiplier: 1.5, maxDelay: 100, jitter: .none)
    #expect(Array(slow.delays(random: SeededRandom(seed: 1))) == [1, 1.5, 2.25, 3.375])
  }

  @Test func sequenceHasMaxAttemptsMinusOneDelays() throws {
    for attempts in [1, 2, 5, 100] {
      let policy = try RetryPolicy(maxAttempts: attempts)
      let delays = policy.delays(random: SeededRandom(seed: 7))
      #expect(delays.underestimatedCount == attempts - 1)
      #expect(Array(delays).count == attempts - 1)
    }
  }

  @Test func zeroInitialDelayMeansImmediateRetries() throws {
    let policy = try RetryPolicy(maxAttempts: 4, initialDelay: 0, maxDelay: 0)
    #expect(Array(policy.delays(random: SeededRandom(seed: 3))) == [0, 0, 0])
    #expect(policy.baseDelay(afterAttempt: Int.max) == 0)
  }

  @Test func attemptNumbersBelowOneCountAsOne() throws {
    let policy = try RetryPolicy(initialDelay: 2, maxDelay: 60, jitter: .none)
    var random = SeededRandom(seed: 1)
    #expect(policy.delay(afterAttempt: 0, random: &random) == 2)
    #expect(policy.delay(afterAttempt: -5, random: &random) == 2)
  }

  @Test func hugeAttemptNumbersReachTheCapWithoutOverflow() throws {
    let policy = try RetryPolicy(initialDelay: 0.1, multiplier: 1.000001, maxDelay: 30, jitter: .none)
    #expect(policy.baseDelay(afterAttempt: Int.max) == 30)
    #expect(policy.baseDelay(afterAttempt: 1_000_000_000) == 30)
    #expect(policy.baseDelay(afterAttempt: 2) == 0.1 * 1.000001)
  }

  @Test func powerBySquaringMatchesRepeatedMultiplication() {
    for base in [1.0, 1.5, 2, 3] {
      var expected = 1.0
      for exponent in 0...40 {
        let power = RetryPolicy.power(base, exponent)
        #expect(abs(power - expected) <= expected * 1e-13, "\(base)^\(exponent)")
        if base == 1 || base == 2 { #expect(power == expected) }  // exact in binary
        expected *= base
      }
    }
    #expect(RetryPolicy.power(2, 2000) == .infinity)
  }

  @Test func fullJitterStaysWithinZeroAndTheBase() throws {
    let policy = try RetryPolicy(maxAttempts: 10, initialDelay: 0.25, multiplier: 2, maxDelay: 8, jitter: .full)
    var random = SeededRandom(seed: 0xC0FFEE)
    for round in 0..<2000 {
      let attempt = round % 12 + 1
      let delay = policy.delay(afterAttempt: attempt, random: &random)
      #expect(delay >= 0 && delay <= policy.baseDelay(afterAttempt: attempt), "attempt \(attempt): \(delay)")
    }
  }

  @Test func fullJitterIsDeterministicForASeedAndVariesAcrossSeeds() throws {
    let policy = try RetryPolicy(maxAttempts: 8, initialDelay: 1, maxDelay: 30, jitter: .full)
    let first = Array(policy.delays(random: SeededRandom(seed: 42)))
    let again = Array(policy.delays(random: SeededRandom(seed: 42)))
    let other = Array(policy.delays(random: SeededRandom(seed: 43)))
    #expect(first == again)
    #expect(first != other)
    #expect(first.count == 7)
    // Jitter really randomises: not the base delays.
    #expect(first != [1, 2, 4, 8, 16, 30, 30])
  }

  @Test func fullJitterCoversTheRange() throws {
    let policy = try RetryPolicy(initialDelay: 10, maxDelay: 10, jitter: .full)
    // A seeded sample reaches both ends of [0, 10] and averages about half.
    var random = SeededRandom(seed: 2024)
    var sum = 0.0
    var lowest = Double.infinity
    var highest = -Double.infinity
    for _ in 0..<10_000 {
      let delay = policy.delay(afterAttempt: 1, random: &random)
      sum += delay
      lowest = min(lowest, delay)
      highest = max(highest, delay)
    }
    #expect(abs(sum / 10_000 - 5) < 0.2)
    #expect(lowest >= 0 && lowest < 0.05)
    #expect(highest <= 10 && highest > 9.95)
  }

  @Test func noJitterIgnoresTheGenerator() throws {
    let policy = try RetryPolicy(initialDelay: 1, maxDelay: 30, jitter: .none)
    var first = SeededRandom(seed: 1)
    var second = SeededRandom(seed: 2)
    #expect(policy.delay(afterAttempt: 3, random: &first) == 4)
    #expect(policy.delay(afterAttempt: 3, random: &second) == 4)
    // And draws nothing from it.
    var untouched = SeededRandom(seed: 1)
    #expect(first.next() == untouched.next())
  }

  @Test func unvalidatedPoliciesNeverTrap() {
    var policy = RetryPolicy.standard
    var random = SeededRandom(seed: 9)
    for (initial, multiplier, maxDelay) in [
      (Double.nan, 2.0, 30.0), (1, .nan, 30), (1, 2, .nan), (1, 2, .infinity), (-1, 2, 30), (1, 2, -5),
      (.infinity, 2, .infinity), (1, 0, 30), (1, -2, 30),
    ] {
      policy.initialDelay = initial
      policy.multiplier = multiplier
      policy.maxDelay = maxDelay
      for jitter in RetryPolicy.Jitter.allCases {
        policy.jitter = jitter
        for attempt in [1, 2, 3, 50] {
          let delay = policy.delay(afterAttempt: attempt, random: &random)
          #expect(delay >= 0 && delay.isFinite, "\(initial) \(multiplier) \(maxDelay) -> \(delay)")
        }
      }
    }
  }
}
