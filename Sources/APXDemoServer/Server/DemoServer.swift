/// The embedded demo backend: BooksTrack V2 imports (REST + SSE), a Klipy-style GIF API,
/// OAuth2 tokens, benchmark generators and fault injection, all on 127.0.0.1.
///
/// ```swift
/// let server = try await DemoServer.start()
/// print(server.httpBaseURL)  // http://127.0.0.1:54321
/// await server.stop()
/// ```
/// It imports neither APXCore nor APXProtobuf, so it behaves like an independent API.
public final class DemoServer: Sendable {
  /// The options the server was started with.
  public let options: DemoServerOptions
  /// The bound HTTP port.
  public let httpPort: Int
  /// The bound gRPC port; 0 while no gRPC server runs.
  public let grpcPort: Int
  private let http: DemoHTTPServer
  private let stopExtras: @Sendable () async -> Void
  private let statsRecorder: StatsRecorder

  private init(
    options: DemoServerOptions, http: DemoHTTPServer, grpcPort: Int, stats: StatsRecorder,
    stopExtras: @escaping @Sendable () async -> Void
  ) {
    self.options = options
    self.http = http
    self.httpPort = http.port
    self.grpcPort = grpcPort
    self.statsRecorder = stats
    self.stopExtras = stopExtras
  }

  /// Starts the server and returns once it is listening.
  public static func start(_ options: DemoServerOptions = .init()) async throws -> DemoServer {
    let stats = StatsRecorder()
    // Shared by the HTTP and gRPC halves, so one OAuth2 token works on both.
    let tokens = TokenStore(lifetime: options.tokenLifetime)
    let http = try await DemoHTTPServer.start(options: options, stats: stats, tokens: tokens)
    let grpc: DemoGRPCServer
    do {
      grpc = try await DemoGRPCServer.start(
        host: options.host, port: options.grpcPort, requireAuth: options.requireAuth,
        validateToken: { tokens.isValid(accessToken: $0) }, tls: options.grpcTLS)
    } catch {
      await http.stop()
      throw error
    }
    return DemoServer(
      options: options, http: http, grpcPort: grpc.port, stats: stats, stopExtras: { await grpc.stop() })
  }

  /// `http://HOST:PORT`, without a trailing slash.
  public var httpBaseURL: String { "http://\(options.host):\(httpPort)" }

  /// `grpc://HOST:PORT`, or `grpcs://HOST:PORT` when gRPC is served over TLS.
  public var grpcBaseURL: String { (options.grpcTLS == nil ? "grpc" : "grpcs") + "://\(options.host):\(grpcPort)" }

  /// A snapshot of the server's statistics.
  public var stats: DemoStats { statsRecorder.snapshot }

  /// Stops everything; returns once the listening sockets are closed.
  public func stop() async {
    // Both halves shut down gracefully; in parallel so one slow half does not delay the other.
    async let extras: Void = stopExtras()
    await http.stop()
    await extras
  }

  /// Serves until the calling task is cancelled (for `apx demo`), then stops.
  public func runUntilCancelled() async throws {
    do {
      try await http.wait()
    } catch is CancellationError {
      // Cancelled by the caller: a normal end.
    } catch {
      await stop()
      throw error
    }
    await stop()
  }
}
