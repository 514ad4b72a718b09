import APXCore
import Testing

@testable import APXRuntime

/// How the policy for one call is put together: endpoint over API over defaults, then the command line.
@Suite struct RetryPolicyResolutionTests {
  @Test func withoutSettingsTheStandardPolicyApplies() throws {
    let policy = try RetryPolicy.effective(api: nil, endpoint: nil, maxAttemptsOverride: nil)
    #expect(policy == .standard)
    #expect(policy.retryOnStatus == [408, 425, 429, 500, 502, 503, 504])
  }

  @Test func endpointFieldsWinOverTheAPIs() throws {
    let api = RetryConfig(maxAttempts: 4, initialDelay: 1, maxDelay: 10, onStatus: [503])
    let endpoint = RetryConfig(maxDelay: 5, jitter: false)
    let policy = try RetryPolicy.effective(api: api, endpoint: endpoint, maxAttemptsOverride: nil)
    #expect(policy.maxAttempts == 4)
    #expect(policy.initialDelay == 1)
    #expect(policy.maxDelay == 5)
    #expect(policy.jitter == RetryPolicy.Jitter.none)
    #expect(policy.retryOnStatus == [503])
  }

  @Test func theCommandLineSetsTheAttempts() throws {
    let api = RetryConfig(maxAttempts: 4)
    #expect(try RetryPolicy.effective(api: api, endpoint: nil, maxAttemptsOverride: 1).maxAttempts == 1)
    #expect(try RetryPolicy.effective(api: api, endpoint: nil, maxAttemptsOverride: 7).maxAttempts == 7)
  }

  @Test func aLargeInitialDelayRaisesTheDefaultCap() throws {
    let policy = try RetryPolicy.effective(api: RetryConfig(initialDelay: 60), endpoint: nil, maxAttemptsOverride: nil)
    #expect(policy.maxDelay == 60)
  }

  @Test func outOfRangeValuesAreRejected() {
    #expect(throws: APXError.self) {
      try RetryPolicy.effective(api: RetryConfig(maxAttempts: 0), endpoint: nil, maxAttemptsOverride: nil)
    }
    #expect(throws: APXError.self) {
      try RetryPolicy.effective(api: nil, endpoint: nil, maxAttemptsOverride: 1000)
    }
  }

  @Test func grpcCodesDefaultToUnavailable() {
    #expect(RetryPolicy.grpcRetryableCodes(api: nil, endpoint: nil) == ["UNAVAILABLE"])
    #expect(
      RetryPolicy.grpcRetryableCodes(api: RetryConfig(onGRPCCodes: ["ABORTED"]), endpoint: nil) == ["ABORTED"])
  }
}
