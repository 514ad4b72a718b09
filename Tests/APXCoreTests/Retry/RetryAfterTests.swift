import Testing

@testable import APXCore

/// `Retry-After` in both forms, turned into seconds to wait.
@Suite struct RetryAfterTests {
  static let now = 784_111_777.0  // Sun, 06 Nov 1994 08:49:37 GMT

  @Test func deltaSeconds() {
    #expect(RetryAfter.seconds(from: "120", now: Self.now) == 120)
    #expect(RetryAfter.seconds(from: "0", now: Self.now) == 0)
    #expect(RetryAfter.seconds(from: "007", now: Self.now) == 7)
    #expect(RetryAfter.seconds(from: " 30\t", now: Self.now) == 30)
    #expect(RetryAfter.seconds(from: "1.5", now: Self.now) == 1.5)
    #expect(RetryAfter.seconds(from: "0.25", now: Self.now) == 0.25)
  }

  @Test func deltaSecondsDoNotDependOnNow() {
    #expect(RetryAfter.seconds(from: "5", now: 0) == 5)
    #expect(RetryAfter.seconds(from: "5", now: .nan) == 5)
  }

  @Test func hugeDeltaSecondsSaturateInsteadOfTrapping() {
    let seconds = RetryAfter.seconds(from: String(repeating: "9", count: 400), now: Self.now)
    #expect(seconds == Double.greatestFiniteMagnitude)
    let twentyNines = RetryAfter.seconds(from: "99999999999999999999", now: Self.now) ?? 0
    #expect(twentyNines > 9.99e19 && twentyNines < 1.01e20)
  }

  @Test(arguments: [
    "", " ", "-1", "+5", "1.", ".5", "1..5", "1.2.3", "12abc", "1e3", "1 2", "0x10", "١٢", "inf", "NaN",
    "Sun, 06 Nov 1994 08:49:37", "tomorrow",
  ])
  func invalidValuesAreIgnored(_ value: String) {
    #expect(RetryAfter.seconds(from: value, now: Self.now) == nil)
  }

  @Test func httpDateInTheFutureGivesTheDifference() {
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:50:07 GMT", now: Self.now) == 30)
    #expect(RetryAfter.seconds(from: "Sunday, 06-Nov-94 08:50:07 GMT", now: Self.now) == 30)
    #expect(RetryAfter.seconds(from: "Sun Nov  6 08:50:07 1994", now: Self.now) == 30)
    #expect(RetryAfter.seconds(from: "Mon, 07 Nov 1994 08:49:37 GMT", now: Self.now) == 86_400)
    // A fractional `now` gives a fractional wait.
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:40 GMT", now: Self.now + 0.5) == 2.5)
  }

  @Test func httpDateInThePastOrNowMeansNoWait() {
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now) == 0)
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:00:00 GMT", now: Self.now) == 0)
    #expect(RetryAfter.seconds(from: "Thu, 01 Jan 1970 00:00:00 GMT", now: Self.now) == 0)
    #expect(RetryAfter.seconds(from: "Sun, 06 Nov 1994 08:50:07 GMT", now: .nan) == 0)
  }

  @Test func feedsTheDecisionWithTheCap() throws {
    let policy = try RetryPolicy(maxAttempts: 3, initialDelay: 1, maxDelay: 60, jitter: .none)
    var random = SeededRandom(seed: 1)
    let wait = RetryAfter.seconds(from: "Sun, 06 Nov 1994 09:49:37 GMT", now: Self.now)
    #expect(wait == 3600)
    let decision = policy.decide(
      afterAttempt: 1, outcome: .status(503), retrySafe: true, retryAfter: wait, random: &random)
    #expect(decision == .retry(after: 60))
  }
}
