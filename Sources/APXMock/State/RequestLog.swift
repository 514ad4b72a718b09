import APXCore
import DequeModule
import Synchronization

/// The requests a mock received, for `GET /__apx/requests`; `POST /__apx/reset` clears it.
///
/// Bounded twice: by entries, and by the bytes their JSON takes. Each body is already cut to
/// `MockRequest.loggedBodyLimit`, but headers and queries come as the client sent them.
final class RequestLog: Sendable {
  /// Entries kept; older ones are dropped first.
  static let limit = 10_000
  /// The most the entries' JSON may take in all (32 MiB); older ones are dropped first.
  static let byteLimit = 32 << 20

  private struct Entries {
    /// A deque: once full, each request drops the oldest entry, which an array would pay for
    /// by moving all the others.
    var items: Deque<(entry: JSONValue, bytes: Int)> = []
    var bytes = 0
  }

  private let entries = Mutex(Entries())
  private let counter = Atomic<Int>(0)

  func append(_ entry: JSONValue) {
    let size = entry.compactJSON.utf8.count
    entries.withLock {
      $0.items.append((entry, size))
      $0.bytes += size
      while $0.items.count > Self.limit || ($0.bytes > Self.byteLimit && $0.items.count > 1) {
        $0.bytes -= $0.items.removeFirst().bytes
      }
    }
  }

  var all: [JSONValue] { entries.withLock { $0.items.map(\.entry) } }

  /// The bytes the entries' JSON takes (for the tests of the bound).
  var byteCount: Int { entries.withLock { $0.bytes } }

  func reset() { entries.withLock { $0 = Entries() } }

  /// A number per request, for the fault dice: the same seed fails the same requests.
  func nextNumber() -> Int { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}
