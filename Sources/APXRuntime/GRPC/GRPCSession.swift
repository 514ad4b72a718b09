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
  /// The direct client's connections (plaintext calls that send one message, and reflection).
  let direct: DirectGRPCPool
  /// Targets whose host name was checked for the direct client.
  private let checked = Mutex<Set<String>>([])

  private struct RunningClient: Sendable {
    let client: GRPCClient<GRPCTransport>
    let connections: Task<Void, Never>
  }

  private init(settings: GRPCSettings, executor: EventLoopTaskExecutor?, exchangeThread: DirectExchangeThread) {
    self.settings = settings
    self.executor = executor
    direct = DirectGRPCPool(exchangeThread: exchangeThread)
  }

  /// Runs `body` with a new session; its clients are shut down when `body` returns or throws,
  /// unless `closing` is `.atProcessExit`.
  ///
  /// - Parameter http: the run's HTTP session, whose event loop the gRPC connections share:
  ///   a call then starts one loop thread, not NIO's shared group of one per core as well
  ///   (their start-up was a measurable part of a short gRPC call). Without it, NIO's shared
  ///   group runs them.
  /// - Parameter exchangeThread: where the direct client's blocking exchanges run (see
  ///   `DirectExchangeThread`).
  public static func with<T: Sendable>(
    _ settings: GRPCSettings, sharing http: HTTPSession? = nil, closing: SessionClosing = .graceful,
    exchangeThread: DirectExchangeThread = .own, _ body: (GRPCSession) async throws -> T
  ) async throws -> T {
    try settings.validate()
    let session = GRPCSession(settings: settings, executor: http?.executor, exchangeThread: exchangeThread)
    if case .atProcessExit = closing {
      ProcessLifetime.keep(session)
      // The direct client's sockets close at once, with no exchange: closed here, they cannot
      // hold up a server that waits for its clients before it stops (the in-process demo).
      defer { session.direct.close() }
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
  /// - Parameters:
  ///   - streamsRequests: the call writes a stream of request messages (client or
  ///     bidirectional streaming). Such calls get a client of their own whose connection
  ///     coalesces flushes; every other call (and reflection) gets one that flushes at once.
  ///     See `GRPCConnection.makeTransport`.
  ///   - timeout: how long the host name may take to resolve (the call's `--timeout`).
  func client(
    for target: GRPCTarget, streamsRequests: Bool = false, timeout: Double?
  ) async throws -> GRPCClient<GRPCTransport> {
    let key = streamsRequests ? "\(target) streaming requests" : "\(target)"
    if clients.withLock({ $0[key] == nil }) {
      _ = try await GRPCHostCheck.resolve(target, timeout: timeout, on: executor?.eventLoop)
    }
    return try clients.withLock { clients in
      if let running = clients[key] { return running.client }
      let client = GRPCClient(
        transport: try GRPCConnection.makeTransport(
          target, settings: settings, coalescingFlushes: streamsRequests, eventLoopGroup: executor?.eventLoop))
      // Ends once `close()` begins the shutdown and the last call is over. On the loop too
      // (an unstructured task does not inherit the preference): grpc-swift's connection and
      // load-balancing tasks then answer the calls without a thread hop.
      let connections = Task(executorPreference: executor) { _ = try? await client.runConnections() }
      clients[key] = RunningClient(client: client, connections: connections)
      return client
    }
  }

  /// What carries a call to `target`: the direct client when `direct` (the call sends one
  /// request message, or is reflection) and the target is plaintext, else grpc-swift's
  /// client. Why two: see `H2Connection`; TLS and request streams stay with grpc-swift.
  func carrier(
    for target: GRPCTarget, direct: Bool, streamsRequests: Bool = false, timeout: Double?
  ) async throws -> GRPCCarrier {
    guard direct, !target.useTLS, settings.directClient else {
      return .grpcSwift(try await client(for: target, streamsRequests: streamsRequests, timeout: timeout))
    }
    let key = "\(target)"
    if checked.withLock({ !$0.contains(key) }) {
      self.direct.remember(
        try await GRPCHostCheck.resolve(target, timeout: timeout, on: executor?.eventLoop), for: target)
      checked.withLock { _ = $0.insert(key) }
    }
    let host = target.host.contains(":") ? "[\(target.host)]" : target.host
    return .direct(self.direct, target, authority: settings.authority ?? "\(host):\(target.port)")
  }

  /// How many clients (connections) the session has opened; for tests.
  var clientCount: Int { clients.withLock { $0.count } }

  /// Shuts every client down gracefully and waits until they have stopped.
  private func close() async {
    let running = clients.withLock { clients in
      defer { clients.removeAll() }
      return Array(clients.values)
    }
    direct.close()
    for r in running { r.client.beginGracefulShutdown() }
    for r in running { await r.connections.value }
  }
}

/// What carries a gRPC call's bytes (see `GRPCSession.carrier`).
enum GRPCCarrier: Sendable {
  case grpcSwift(GRPCClient<GRPCTransport>)
  case direct(DirectGRPCPool, GRPCTarget, authority: String)
}

/// Descriptor pools already built during a run, by schema source.
actor SchemaCache {
  private var pools: [String: DescriptorPool] = [:]

  /// The cached pool for `key`, if any.
  func pool(for key: String) -> DescriptorPool? { pools[key] }

  /// Remembers a pool.
  func store(_ pool: DescriptorPool, for key: String) { pools[key] = pool }
}
