import Synchronization

/// Raised when the server starts stopping, so long-lived streams can end cleanly
/// (graceful shutdown waits for every open response to finish).
final class StopSignal: Sendable {
  private let raised = Atomic<Bool>(false)

  /// True once `raise()` was called.
  var isRaised: Bool { raised.load(ordering: .acquiring) }

  /// Marks the server as stopping.
  func raise() { raised.store(true, ordering: .releasing) }
}
