import Synchronization

/// Thread-safe owner of the server's `DemoStats`; handlers update it, callers read snapshots.
final class StatsRecorder: Sendable {
  private let state = Mutex(DemoStats())

  /// A copy of the current statistics.
  var snapshot: DemoStats { state.withLock { $0 } }

  /// Applies `change` to the statistics under the lock and returns what it returns.
  @discardableResult
  func update<T: Sendable>(_ change: (inout DemoStats) -> T) -> T {
    state.withLock { change(&$0) }
  }

  /// Counts one request on `route`.
  func recordRequest(route: String) {
    update { $0.requestsByRoute[route, default: 0] += 1 }
  }

  /// Marks a GIF view as started and keeps the in-flight maximum.
  func beginView() {
    update { stats in
      stats.viewsInFlight += 1
      stats.maxViewsInFlight = max(stats.maxViewsInFlight, stats.viewsInFlight)
    }
  }

  /// Marks a GIF view as finished.
  func endView(completed: Bool) {
    update { stats in
      stats.viewsInFlight -= 1
      if completed { stats.views += 1 }
    }
  }
}
