import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The Hummingbird application of the demo backend, running in a task of its own.
final class DemoHTTPServer: Sendable {
  /// The port the server listens on.
  let port: Int
  private let task: Task<Void, any Error>
  private let imports: ImportStore

  private init(port: Int, task: Task<Void, any Error>, imports: ImportStore) {
    self.port = port
    self.task = task
    self.imports = imports
  }

  /// Binds and starts the server; returns once it accepts connections.
  static func start(options: DemoServerOptions, stats: StatsRecorder, tokens: TokenStore) async throws
    -> DemoHTTPServer
  {
    let imports = ImportStore()
    let router = Router(context: DemoRequestContext.self)
    router.add(middleware: DemoRouteMiddleware(stats: stats))

    let api = router.group("api/v2")
    if options.requireAuth {
      api.add(middleware: BearerAuthMiddleware(tokens: tokens, stats: stats))
    }
    BooksRoutes(imports: imports, stats: stats, options: options).register(on: api)
    BenchRoutes().register(on: api)
    FlakyRoutes(stats: stats).register(on: api)
    GifRoutes(catalogue: GifCatalogue(), stats: stats).register(on: router)
    OAuthRoutes(tokens: tokens, stats: stats).register(on: router)
    ControlRoutes(stats: stats, tokens: tokens).register(on: router)

    let started = StartSignal()
    let app = Application(
      router: router,
      configuration: .init(address: .hostname(options.host, port: options.httpPort), serverName: "apx-demo"),
      onServerRunning: { channel in started.succeed(port: channel.localAddress?.port ?? 0) },
      logger: Self.logger()
    )
    let task = Task {
      do {
        try await app.run()
        started.fail(DemoServerError.stoppedBeforeListening)
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
      return DemoHTTPServer(port: port, task: task, imports: imports)
    } catch {
      task.cancel()
      _ = await task.result
      await imports.stopAll()
      throw error
    }
  }

  /// Stops background jobs, closes the listening socket and every connection, then returns.
  func stop() async {
    await imports.stopAll()
    task.cancel()
    _ = await task.result
  }

  /// Waits until the server ends; cancelling the caller stops it.
  func wait() async throws {
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Warnings and errors only, on stderr: stdout belongs to apx's data.
  private static func logger() -> Logger {
    var logger = Logger(label: "apx.demo.http") { label in StreamLogHandler.standardError(label: label) }
    logger.logLevel = .warning
    return logger
  }
}

/// Errors of the demo server's own life cycle.
public enum DemoServerError: Error, Sendable {
  /// The server task ended before it reported a listening socket.
  case stoppedBeforeListening
}

/// One-shot hand-over of the bound port (or the startup error) from the server task.
final class StartSignal: Sendable {
  private enum State {
    case waiting(CheckedContinuation<Int, any Error>?)
    case done(Result<Int, any Error>)
  }

  private let state = Mutex(State.waiting(nil))

  func succeed(port: Int) { resolve(.success(port)) }
  func fail(_ error: any Error) { resolve(.failure(error)) }

  /// The port, once the server listens; the error if it failed first.
  func wait() async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<Int, any Error>? = state.withLock { state in
        switch state {
        case .waiting:
          state = .waiting(continuation)
          return nil
        case .done(let result):
          return result
        }
      }
      if let ready { continuation.resume(with: ready) }
    }
  }

  private func resolve(_ result: Result<Int, any Error>) {
    let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
      guard case .waiting(let continuation) = state else { return nil }  // first result wins
      state = .done(result)
      return continuation
    }
    continuation?.resume(with: result)
  }
}
