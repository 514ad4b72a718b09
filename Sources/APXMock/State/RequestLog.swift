import APXCore
import DequeModule
import Synchronization

/// The requests a mock received, for `GET /__apx/requests`; `POST /__apx/reset` clears it.
final class RequestLog: Sendable {
  /// Entries kept; older ones are dropped first.
  static let limit = 10_000
  /// A deque: once full, each request drops the oldest entry, which an array would pay for by
  /// moving all the others.
  private let entries = Mutex<Deque<JSONValue>>([])
  private let counter = Atomic<Int>(0)

  func append(_ entry: JSONValue) {
    entries.withLock {
      $0.append(entry)
      if $0.count > Self.limit { $0.removeFirst($0.count - Self.limit) }
    }
  }

  var all: [JSONValue] { entries.withLock { Array($0) } }

  func reset() { entries.withLock { $0.removeAll() } }

  /// A number per request, for the fault dice: the same seed fails the same requests.
  func nextNumber() -> Int { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}
