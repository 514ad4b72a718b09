import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The Hummingbird application of the demo backend, running in a task of its own.
final class DemoHTTPServer: Sendable {
  /// The port the server listens on.
  let port: Int
  /// Longest wait for open connections to finish on stop before they are cut.
  static let gracefulStopLimit: Duration = .seconds(3)

  private let task: Task<Void, any Error>
  private let group: ServiceGroup
  private let imports: ImportStore
  private let stopping: StopSignal

  private init(
    port: Int, task: Task<Void, any Error>, group: ServiceGroup, imports: ImportStore, stopping: StopSignal
  ) {
    self.port = port
    self.task = task
    self.group = group
    self.imports = imports
    self.stopping = stopping
  }

  /// Binds and starts the server; returns once it accepts connections.
  static func start(options: DemoServerOptions, stats: StatsRecorder, tokens: TokenStore) async throws
    -> DemoHTTPServer
  {
    let imports = ImportStore()
    let stopping = StopSignal()
    let router = Router(context: DemoRequestContext.self)
    let methods = RouteMethods()
    router.add(middleware: DemoRouteMiddleware(stats: stats, methods: methods))

    let api = router.group("api/v2")
    if options.requireAuth {
      api.add(middleware: BearerAuthMiddleware(tokens: tokens, stats: stats))
    }
    BooksRoutes(imports: imports, stats: stats, options: options, stopping: stopping).register(on: api)
    BenchRoutes().register(on: api)
    FlakyRoutes(stats: stats).register(on: api)
    CatalogueRoutes(stats: stats).register(on: api)
    let graphQL = try GraphQLRoutes(imports: imports, options: options)
    graphQL.register(on: api)
    GifRoutes(catalogue: GifCatalogue(), stats: stats).register(on: router)
    OAuthRoutes(tokens: tokens, stats: stats).register(on: router)
    OpenAPIRoutes().register(on: router)
    ControlRoutes(stats: stats, tokens: tokens).register(on: router)
    EchoRoutes().register(on: router)
    LinesRoutes().register(on: router)
    TicksRoutes().register(on: router)
    StallRoutes(stopping: stopping).register(on: router)
    DripRoutes(stopping: stopping).register(on: router)
    RedirectRoutes().register(on: router)
    CookieRoutes().register(on: router)
    // WebSocket routes: the upgrade router serves handshakes; a refused one falls through to `router`.
    let webSocketRouter = Router(context: DemoWebSocketContext.self)
    WebSocketEchoRoute().register(http: router, webSocket: webSocketRouter)
    ProgressV1Route(imports: imports, tokens: tokens, stats: stats, options: options, stopping: stopping)
      .register(http: router, webSocket: webSocketRouter)
    GraphQLWebSocketRoute(schema: graphQL.schema, tokens: tokens, stats: stats, options: options)
      .register(webSocket: webSocketRouter)
    methods.record(router)
    JSONRPCRoutes().register(on: router)

    let started = StartSignal()
    let logger = Self.logger()
    let app = Application(
      router: router,
      server: .http1WebSocketUpgrade(webSocketRouter: webSocketRouter),
      configuration: .init(address: .hostname(options.host, port: options.httpPort), serverName: "apx-demo"),
      onServerRunning: { channel in started.succeed(port: channel.localAddress?.port ?? 0) },
      logger: logger
    )
    // Our own group (no signal handlers: the host process owns signals) so that stop()
    // can shut down gracefully instead of cancelling, which would log errors.
    let group = ServiceGroup(services: [app], logger: logger)
    let task = Task {
      do {
        try await group.run()
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
      return DemoHTTPServer(port: port, task: task, group: group, imports: imports, stopping: stopping)
    } catch {
      task.cancel()
      _ = await task.result
      await imports.stopAll()
      throw error
    }
  }

  /// Stops background jobs, ends open streams, closes the listening socket and every
  /// connection, then returns. Safe to call more than once.
  func stop() async {
    stopping.raise()
    await imports.stopAll()
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

  /// Waits until the server ends; cancelling the caller stops it gracefully.
  func wait() async throws {
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      Task { await self.stop() }
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
