import APXCore
import APXProtobuf
import GRPCCore
import NIOCore
import NIOPosix
import Synchronization

/// The gRPC state of one run (a command or a recipe): its settings, one
/// client (HTTP/2 connection) per target, reused by every call and every
/// attempt of the run, and the schemas already loaded, so that reflection is
/// asked once per server and protosets are read once. Opened with
/// `GRPCSession.with`, which closes the clients when the run ends, and handed
/// to the `Executor` (and `GRPCInspector`) explicitly.
public final class GRPCSession: Sendable {
  /// Settings for every call of the run.
  public let settings: GRPCSettings
  /// Where the run's connections run, and their tasks (the HTTP session's loop, when the
  /// run has one).
  private let executor: EventLoopTaskExecutor?
  let schemas = SchemaCache()
  private let clients = Mutex<[String: RunningClient]>([:])

  private struct RunningClient: Sendable {
    let client: GRPCClient<GRPCTransport>
    let connections: Task<Void, Never>
    /// The relay through the proxy, when the target is reached through one.
    let relay: RelaySocket?
  }

  private init(settings: GRPCSettings, executor: EventLoopTaskExecutor?) {
    self.settings = settings
    self.executor = executor
  }

  /// Runs `body` with a new session; its clients are shut down when `body` returns or throws,
  /// unless `closing` is `.atProcessExit`.
  ///
  /// - Parameter http: the run's HTTP session, whose event loop the gRPC connections share:
  ///   a call then starts one loop thread, not NIO's shared group of one per core as well
  ///   (their start-up was a measurable part of a short gRPC call). Without it, NIO's shared
  ///   group runs them.
  public static func with<T: Sendable>(
    _ settings: GRPCSettings, sharing http: HTTPSession? = nil, closing: SessionClosing = .graceful,
    _ body: (GRPCSession) async throws -> T
  ) async throws -> T {
    try settings.validate()
    let session = GRPCSession(settings: settings, executor: http?.executor)
    if case .atProcessExit = closing {
      ProcessLifetime.keep(session)
      return try await body(session)
    }
    do {
      let result = try await body(session)
      await session.close()
      return result
    } catch {
      await session.close()
      throw error
    }
  }

  /// The run's client for `target`, connected on first use (its host name checked first:
  /// see `GRPCHostCheck`).
  ///
  /// - Parameter timeout: how long the host name may take to resolve (the call's `--timeout`).
  func client(for target: GRPCTarget, timeout: Double?) async throws -> GRPCClient<GRPCTransport> {
    let key = "\(target)"
    if let running = clients.withLock({ $0[key] }) { return running.client }
    let proxy = proxy(for: target)
    var relay: RelaySocket?
    if let proxy {
      // The proxy resolves the target's name.
      relay = try await TunnelRelay.start(
        proxy: proxy, target: .init(host: target.host, port: target.port, shown: "\(target)", calls: "gRPC calls"),
        connectTimeout: .milliseconds(DurationConversion.milliseconds(settings.connectTimeout)),
        on: executor?.eventLoop ?? MultiThreadedEventLoopGroup.singleton.next())
    } else {
      try await GRPCHostCheck.resolve(target, timeout: timeout, on: executor?.eventLoop)
    }
    let made: (client: GRPCClient<GRPCTransport>, unused: RelaySocket?)
    do {
      made = try clients.withLock { clients in
        if let running = clients[key] { return (running.client, relay) }
        return (try connect(target, key: key, relay: relay, into: &clients), nil)
      }
    } catch {
      await relay?.close()
      throw error
    }
    // Another call connected to the same target first.
    if let unused = made.unused { await unused.close() }
    return made.client
  }

  /// A new client for `target` (through `relay` when given), its connections started, kept in `clients`.
  private func connect(
    _ target: GRPCTarget, key: String, relay: RelaySocket?, into clients: inout [String: RunningClient]
  ) throws -> GRPCClient<GRPCTransport> {
    let client = GRPCClient(
      transport: try GRPCConnection.makeTransport(
        target, settings: settings, eventLoopGroup: executor?.eventLoop, relay: relay?.socketPath))
    // Ends once `close()` begins the shutdown and the last call is over. On the loop too
    // (an unstructured task does not inherit the preference): grpc-swift's connection and
    // load-balancing tasks then answer the calls without a thread hop.
    let connections = Task(executorPreference: executor) { _ = try? await client.runConnections() }
    clients[key] = RunningClient(client: client, connections: connections, relay: relay)
    return client
  }

  /// The proxy a call to `target` goes through, or nil when it goes direct.
  func proxy(for target: GRPCTarget) -> ProxyServer? {
    settings.proxy.proxy(scheme: "https", host: target.host)
  }

  /// Why the proxy between this run and `target` failed to open a tunnel, if it did.
  func proxyFailure(for target: GRPCTarget) -> APXError? {
    clients.withLock { $0["\(target)"]?.relay?.failure }
  }

  /// How many clients (connections) the session has opened; for tests.
  var clientCount: Int { clients.withLock { $0.count } }

  /// Shuts every client down gracefully and waits until they have stopped.
  private func close() async {
    let running = clients.withLock { clients in
      defer { clients.removeAll() }
      return Array(clients.values)
    }
    for r in running { r.client.beginGracefulShutdown() }
    for r in running { await r.connections.value }
    for r in running { await r.relay?.close() }
  }
}

/// Descriptor pools already built during a run, by schema source.
actor SchemaCache {
  private var pools: [String: DescriptorPool] = [:]

  /// The cached pool for `key`, if any.
  func pool(for key: String) -> DescriptorPool? { pools[key] }

  /// Remembers a pool.
  func store(_ pool: DescriptorPool, for key: String) { pools[key] = pool }
}
