import NIOCore
import NIOPosix
import Synchronization

/// The one event loop of a command that ends with its process (`apx call`, `apx run`): its
/// sessions' connections run on it (`SessionClosing.atProcessExit`), and so does the command
/// itself (`run`, `runOnCurrentThread`).
///
/// Why one thread from the start: a command that begins on Swift's global pool hops to the
/// pool, then to the loop on every answer from the network; started on the loop, an ad-hoc
/// gRPC call made no use of the pool (its threads are not even started) and took 0.89x the
/// wall time of one whose loop came with its HTTP session.
public enum CommandEventLoop {
  /// The loop: the thread `runOnCurrentThread` was called on, else (tests) a group of one
  /// thread made at first use. Never shut down: the process's exit ends it.
  private static let installed = Mutex<EventLoopTaskExecutor?>(nil)

  /// Jobs of tasks that prefer it run on the loop's thread.
  static var executor: EventLoopTaskExecutor {
    installed.withLock { installed in
      if let installed { return installed }
      let made = EventLoopTaskExecutor(MultiThreadedEventLoopGroup(numberOfThreads: 1).next())
      installed = made
      return made
    }
  }

  /// Runs `body` with the loop as its task executor preference (see `HTTPSession.with`): the
  /// nonisolated async functions it calls run on the loop's thread.
  public static func run<T, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> T
  ) async throws(Failure) -> T {
    try await withTaskExecutorPreference(executor, isolation: isolation, operation: body)
  }

  /// Makes the calling thread the loop and runs `body` on it as a task, which ends the process.
  /// The command then needs no thread of its own: starting one and handing the command over
  /// cost a 10 ms gRPC call with reflection 0.4 ms (0.95x the wall time and 0.87x the CPU
  /// without them, 80 interleaved runs), while the calling thread only waited.
  ///
  /// Call it once, before anything else uses `executor`. Returns only if the loop stops, which
  /// nothing asks it to.
  public static func runOnCurrentThread(_ body: @escaping @Sendable () async -> Never) {
    MultiThreadedEventLoopGroup.withCurrentThreadAsEventLoop { loop in
      let executor = EventLoopTaskExecutor(loop)
      installed.withLock { $0 = executor }
      Task(executorPreference: executor) { await body() }
    }
  }
}
