import APXServing
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The Hummingbird application of the demo backend, running in a task of its own.
final class DemoHTTPServer: Sendable {
  /// The port the server listens on.
  var port: Int { host.port }

  private let host: HTTPServerHost
  private let imports: ImportStore
  private let stopping: StopSignal

  private init(host: HTTPServerHost, imports: ImportStore, stopping: StopSignal) {
    self.host = host
    self.imports = imports
    self.stopping = stopping
  }

  /// Binds and starts the server; returns once it accepts connections.
  static func start(options: DemoServerOptions, stats: StatsRecorder, tokens: TokenStore) async throws
    -> DemoHTTPServer
  {
    let imports = ImportStore()
    let stopping = StopSignal()
    let router = Router(context: ServerRequestContext.self)
    let methods = RouteMethods()
    router.add(middleware: DemoRouteMiddleware(stats: stats, methods: methods))

    let api = router.group("api/v2")
    if options.requireAuth {
      api.add(middleware: BearerAuthMiddleware(tokens: tokens, stats: stats))
    }
    let logins = LoginRoutes(logins: LoginGrants(), tokens: tokens)
    logins.registerMe(on: api)
    BooksRoutes(imports: imports, stats: stats, options: options, stopping: stopping).register(on: api)
    BenchRoutes().register(on: api)
    FlakyRoutes(stats: stats).register(on: api)
    CatalogueRoutes(stats: stats).register(on: api)
    let graphQL = try GraphQLRoutes(imports: imports, options: options)
    graphQL.register(on: api)
    GifRoutes(catalogue: GifCatalogue(), stats: stats).register(on: router)
    OAuthRoutes(tokens: tokens, stats: stats, logins: logins.logins).register(on: router)
    logins.register(on: router)
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

    let logger = HTTPServerHost.logger(label: "apx.demo.http")
    do {
      let host = try await HTTPServerHost.start(logger: logger) { onServerRunning in
        Application(
          router: router,
          server: .http1WebSocketUpgrade(webSocketRouter: webSocketRouter),
          configuration: .init(address: .hostname(options.host, port: options.httpPort), serverName: "apx-demo"),
          onServerRunning: onServerRunning,
          logger: logger
        )
      }
      return DemoHTTPServer(host: host, imports: imports, stopping: stopping)
    } catch {
      await imports.stopAll()
      throw error
    }
  }

  /// Stops background jobs, ends open streams, closes the listening socket and every
  /// connection, then returns. Safe to call more than once.
  func stop() async {
    stopping.raise()
    await imports.stopAll()
    await host.stop()
  }

  /// Waits until the server ends; cancelling the caller stops it gracefully.
  func wait() async throws {
    try await withTaskCancellationHandler {
      try await host.wait()
    } onCancel: {
      Task { await self.stop() }
    }
  }
}
