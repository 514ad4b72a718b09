import APXCore
import APXProtobuf
import GRPCCore
import NIOCore
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
    if clients.withLock({ $0[key] == nil }) {
      try await GRPCHostCheck.resolve(target, timeout: timeout, on: executor?.eventLoop)
    }
    return try clients.withLock { clients in
      if let running = clients[key] { return running.client }
      let client = GRPCClient(
        transport: try GRPCConnection.makeTransport(
          target, settings: settings, eventLoopGroup: executor?.eventLoop))
      // Ends once `close()` begins the shutdown and the last call is over. On the loop too
      // (an unstructured task does not inherit the preference): grpc-swift's connection and
      // load-balancing tasks then answer the calls without a thread hop.
      let connections = Task(executorPreference: executor) { _ = try? await client.runConnections() }
      clients[key] = RunningClient(client: client, connections: connections)
      return client
    }
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
