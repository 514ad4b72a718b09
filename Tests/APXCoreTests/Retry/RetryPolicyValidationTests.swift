import Testing

@testable import APXCore

/// Out-of-range retry settings are rejected with a clear registry error.
@Suite struct RetryPolicyValidationTests {
  @Test func defaultsAreValidAndMatchTheStandardPolicy() throws {
    let policy = try RetryPolicy()
    #expect(policy == RetryPolicy.standard)
    #expect(policy.retryOnStatus == [408, 425, 429, 500, 502, 503, 504])
    #expect(policy.multiplier == 2)
    #expect(policy.jitter == .full)
    try RetryPolicy.never.validate()
    try RetryPolicy.standard.validate()
  }

  @Test func boundaryValuesAreAccepted() throws {
    _ = try RetryPolicy(maxAttempts: 1)
    _ = try RetryPolicy(maxAttempts: 100)
    _ = try RetryPolicy(initialDelay: 0, maxDelay: 0)
    _ = try RetryPolicy(initialDelay: 3, multiplier: 1, maxDelay: 3)
    _ = try RetryPolicy(retryOnStatus: [])
    _ = try RetryPolicy(retryOnStatus: [100, 599])
  }

  static let invalid: [(String, @Sendable () throws(APXError) -> RetryPolicy)] = [
    ("max_attempts", { () throws(APXError) in try RetryPolicy(maxAttempts: 0) }),
    ("max_attempts", { () throws(APXError) in try RetryPolicy(maxAttempts: -3) }),
    ("max_attempts", { () throws(APXError) in try RetryPolicy(maxAttempts: 101) }),
    ("initial_delay", { () throws(APXError) in try RetryPolicy(initialDelay: -0.1) }),
    ("initial_delay", { () throws(APXError) in try RetryPolicy(initialDelay: .nan) }),
    ("initial_delay", { () throws(APXError) in try RetryPolicy(initialDelay: .infinity) }),
    ("multiplier", { () throws(APXError) in try RetryPolicy(multiplier: 0.5) }),
    ("multiplier", { () throws(APXError) in try RetryPolicy(multiplier: .nan) }),
    ("multiplier", { () throws(APXError) in try RetryPolicy(multiplier: .infinity) }),
    ("max_delay", { () throws(APXError) in try RetryPolicy(maxDelay: -1) }),
    ("max_delay", { () throws(APXError) in try RetryPolicy(maxDelay: .nan) }),
    ("max_delay", { () throws(APXError) in try RetryPolicy(maxDelay: .infinity) }),
    ("max_delay", { () throws(APXError) in try RetryPolicy(initialDelay: 10, maxDelay: 5) }),
    ("on_status", { () throws(APXError) in try RetryPolicy(retryOnStatus: [503, 99]) }),
    ("on_status", { () throws(APXError) in try RetryPolicy(retryOnStatus: [600]) }),
  ]

  @Test(arguments: 0..<invalid.count)
  func outOfRangeValuesThrowInvalidDefinition(_ index: Int) {
    let (key, make) = Self.invalid[index]
    do {
      let policy = try make()
      Issue.record("accepted \(policy) although \(key) is out of range")
    } catch {
      #expect(error.status == .invalidDefinition)
      #expect(error.message.contains(key), "message \(error.message) names \(key)")
      #expect(error.hint?.isEmpty == false)
      #expect(error.path == nil)
    }
  }

  @Test func messagesSayWhatWasGiven() {
    #expect(throws: APXError.self) { try RetryPolicy(maxAttempts: 0) }
    do {
      _ = try RetryPolicy(maxAttempts: 0)
    } catch {
      #expect(error.message == "retry max_attempts must be between 1 and 100, got 0")
    }
    do {
      _ = try RetryPolicy(initialDelay: 10, maxDelay: 5)
    } catch {
      #expect(error.message == "retry max_delay (5.0) must not be smaller than initial_delay (10.0)")
    }
  }

  @Test func validateReportsThePathOfTheBadKey() {
    var policy = RetryPolicy.standard
    policy.multiplier = 0
    do {
      try policy.validate(path: ".retry")
      Issue.record("multiplier 0 accepted")
    } catch {
      #expect(error.path == ".retry.multiplier")
    }
  }

  @Test func validateChecksFieldsChangedAfterConstruction() {
    var policy = RetryPolicy.standard
    policy.maxAttempts = 500
    #expect(throws: APXError.self) { try policy.validate() }
  }
}
