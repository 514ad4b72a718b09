import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The wall clock and the sleeper that retries and token expiry use.
///
/// Injected (into `Executor` and `TokenManager`) so tests can
/// move time forward and record every wait without sleeping.
public protocol RetryClock: Sendable {
  /// The current time in seconds since 1970-01-01T00:00:00Z (what
  /// `Retry-After` dates and token expiries are compared with).
  func now() -> Double
  /// Suspends for `seconds` (0 or less returns at once); throws
  /// `CancellationError` when the task is cancelled.
  func sleep(seconds: Double) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemRetryClock: RetryClock {
  /// Makes the system clock.
  public init() {}

  /// Seconds since 1970 from the system clock.
  public func now() -> Double { Date().timeIntervalSince1970 }

  /// Sleeps for `seconds`, rounded to the millisecond, honouring cancellation.
  public func sleep(seconds: Double) async throws {
    guard seconds.isFinite, seconds > 0 else {
      try Task.checkCancellation()
      return
    }
    // Cap far-future waits so the Duration arithmetic cannot overflow.
    let millis = DurationConversion.milliseconds(min(seconds, 86_400 * 365))
    try await Task.sleep(for: .milliseconds(millis))
  }
}
