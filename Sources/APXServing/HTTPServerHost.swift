public import Hummingbird
public import Logging
public import NIOCore
import ServiceLifecycle

/// A Hummingbird application running in a task of its own: started, bound, then stopped
/// gracefully on request. The demo backend and `apx mock` both serve through it.
public final class HTTPServerHost: Sendable {
  /// The port the server listens on.
  public let port: Int
  /// Longest wait for open connections to finish on stop before they are cut.
  public static let gracefulStopLimit: Duration = .seconds(3)

  private let task: Task<Void, any Error>
  private let group: ServiceGroup

  private init(port: Int, task: Task<Void, any Error>, group: ServiceGroup) {
    self.port = port
    self.task = task
    self.group = group
  }

  /// Builds the application with `make` (handing it the callback that reports the bound port)
  /// and runs it; returns once it accepts connections.
  public static func start<App: ApplicationProtocol>(
    logger: Logger, _ make: (_ onServerRunning: @escaping @Sendable (any Channel) async -> Void) -> App
  ) async throws -> HTTPServerHost {
    let started = StartSignal()
    let app = make { channel in started.succeed(port: channel.localAddress?.port ?? 0) }
    // Our own group (no signal handlers: the host process owns signals) so that stop()
    // can shut down gracefully instead of cancelling, which would log errors.
    let group = ServiceGroup(services: [app], logger: logger)
    let task = Task {
      do {
        try await group.run()
        started.fail(ServerHostError.stoppedBeforeListening)
      } catch {
        started.fail(error)
        throw error
      }
    }
    do {
      let port = try await withTaskCancellationHandler {
        try await started.wait()
      } onCancel: {
        task.cancel()
      }
      return HTTPServerHost(port: port, task: task, group: group)
    } catch {
      task.cancel()
      _ = await task.result
      throw error
    }
  }

  /// Closes the listening socket and every connection, then returns. Safe to call more than once.
  public func stop() async {
    await group.triggerGracefulShutdown()
    // A client that stops reading a large body can hold its connection open: cut it after a while.
    let task = self.task
    let limit = Task {
      try await Task.sleep(for: Self.gracefulStopLimit)
      task.cancel()
    }
    _ = await task.result
    limit.cancel()
  }

  /// Waits until the server ends (its task's error, if any).
  public func wait() async throws {
    try await task.value
  }

  /// Warnings and errors only, on stderr: stdout belongs to apx's data.
  public static func logger(label: String) -> Logger {
    var logger = Logger(label: label) { label in StreamLogHandler.standardError(label: label) }
    logger.logLevel = .warning
    return logger
  }
}
