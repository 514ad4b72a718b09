import Synchronization

/// A flag set once, from any task (a close frame sent; an answer refused for its size).
final class SharedFlag: Sendable {
  private let value = Atomic<Bool>(false)

  /// Sets the flag; true when this call set it, false when it was set already.
  func set() -> Bool { value.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged }

  /// Whether the flag is set.
  var isSet: Bool { value.load(ordering: .relaxed) }
}
