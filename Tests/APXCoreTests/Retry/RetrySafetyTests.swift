import Testing

@testable import APXCore

/// Which requests may be repeated without applying them twice.
@Suite struct RetrySafetyTests {
  @Test(arguments: ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "get", "Delete"])
  func safeAndIdempotentMethodsAreAlwaysRetrySafe(_ method: String) {
    #expect(isRetrySafe(method: method, idempotent: false, hasIdempotencyKey: false))
    #expect(isRetrySafe(method: method, idempotent: true, hasIdempotencyKey: true))
  }

  @Test(arguments: ["POST", "PATCH", "post", "CONNECT", "PROPFIND", ""])
  func otherMethodsNeedAMarkOrAKey(_ method: String) {
    #expect(!isRetrySafe(method: method, idempotent: false, hasIdempotencyKey: false))
    #expect(isRetrySafe(method: method, idempotent: true, hasIdempotencyKey: false))
    #expect(isRetrySafe(method: method, idempotent: false, hasIdempotencyKey: true))
    #expect(isRetrySafe(method: method, idempotent: true, hasIdempotencyKey: true))
  }
}
