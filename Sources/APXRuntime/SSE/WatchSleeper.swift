import APXCore

/// Waits between SSE reconnections and between polls of a fallback endpoint.
///
/// Injected into `SSEWatch` so that tests can record the waits the schedule
/// asks for and return at once, instead of sleeping for seconds.
public protocol WatchSleeper: Sendable {
  /// Suspends for `seconds` (0 returns at once); throws `CancellationError`
  /// when the task is cancelled (e.g. the overall `--timeout` expired).
  func sleep(seconds: Double) async throws
}

/// Sleeps on the task's clock (`Task.sleep`), honouring cancellation.
public struct TaskSleeper: WatchSleeper {
  /// Makes a sleeper.
  public init() {}

  /// Sleeps for `seconds`, rounded to the millisecond.
  public func sleep(seconds: Double) async throws {
    guard seconds.isFinite, seconds > 0 else {
      try Task.checkCancellation()
      return
    }
    try await Task.sleep(for: .milliseconds(DurationConversion.milliseconds(seconds)))
  }
}
