#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs blocking work on a thread of its own and awaits its result.
///
/// Why not NIO's blocking pool: `NIOThreadPool.singleton` starts one thread per core at its first
/// use (reading the cgroup's CPU quota to count them), and it is shared with host-name lookups
/// that may hang past their deadline. A direct gRPC exchange needs one thread for a few
/// milliseconds; recipe steps that run side by side each get their own, never waiting for
/// another's.
enum BlockingThread {
  /// `body`'s result, computed on a new thread.
  static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      let work = Work {
        continuation.resume(with: Result { try body() })
      }
      let context = Unmanaged.passRetained(work).toOpaque()
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
      defer { pthread_attr_destroy(&attributes) }
      #if canImport(Darwin)
        var thread: pthread_t?
      #else
        var thread = pthread_t()
      #endif
      let status = pthread_create(
        &thread, &attributes,
        { context in
          #if canImport(Darwin)
            let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
          #else
            let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
          #endif
          work.body()
          return nil
        }, context)
      if status != 0 {
        Unmanaged<Work>.fromOpaque(context).release()
        continuation.resume(throwing: ThreadStartFailure(code: status))
      }
    }
  }

  private final class Work {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }

  /// The system refused a thread (`pthread_create`'s error number).
  struct ThreadStartFailure: Error, CustomStringConvertible {
    let code: Int32
    var description: String { "could not start a thread: \(String(cString: strerror(code)))" }
  }
}
