import NIOPosix

/// The one event loop of a command that ends with its process (`apx call`, `apx run`): its
/// sessions' connections run on it (`SessionClosing.atProcessExit`), and so does the command
/// itself (`run`).
///
/// Why one thread from the start: a command that begins on Swift's global pool hops to the
/// pool, then to the loop on every answer from the network; started on the loop, an ad-hoc
/// gRPC call made no use of the pool (its threads are not even started) and took 0.89x the
/// wall time of one whose loop came with its HTTP session.
public enum CommandEventLoop {
  /// Never shut down: the process's exit ends its thread.
  private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
  /// Jobs of tasks that prefer it run on the loop's thread.
  static let executor = EventLoopTaskExecutor(group.next())

  /// Runs `body` with the loop as its task executor preference (see `HTTPSession.with`): the
  /// nonisolated async functions it calls run on the loop's thread.
  public static func run<T, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> T
  ) async throws(Failure) -> T {
    try await withTaskExecutorPreference(executor, isolation: isolation, operation: body)
  }
}
