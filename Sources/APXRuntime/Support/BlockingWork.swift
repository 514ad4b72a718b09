import Dispatch

/// Runs blocking work (a child process, a whole-file read) on a Dispatch thread
/// instead of a thread of Swift's cooperative pool. The pool has one thread per
/// core: on 2 cores, two blocked tasks stop every other task of the process —
/// measured in the tests, a reflection listing waited 8–15 s behind `protoc` runs.
enum BlockingWork {
  /// The result of `work`, computed off the cooperative pool.
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
  }
}
