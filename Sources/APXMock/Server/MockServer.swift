public import APXCore
import APXServing
import Hummingbird
import HummingbirdWebSocket

/// `apx mock`: serves each API of a registry as a fake backend, one port per API.
///
/// ```swift
/// let server = try await MockServer.start(apis: [api], options: MockOptions()) { line in log(line) }
/// let base = server.addresses[0].url  // "http://127.0.0.1:54321"
/// await server.stop()
/// ```
public final class MockServer: Sendable {
  /// Each API's name and base URL, in the order given.
  public let addresses: [(api: String, url: String)]
  /// The OAuth2 token endpoints served, by API: `http://127.0.0.1:PORT/oauth/token`.
  public let tokenEndpoints: [(api: String, url: String)]
  /// The tokens those endpoints issued, for the gRPC server's expiry check.
  public let tokens: MockTokens
  private let hosts: [HTTPServerHost]
  /// Each API's answers and request log, by name.
  private let mocks: [String: MockAPI]

  private init(
    addresses: [(api: String, url: String)], tokenEndpoints: [(api: String, url: String)] = [],
    tokens: MockTokens = MockTokens(), hosts: [HTTPServerHost], mocks: [String: MockAPI] = [:]
  ) {
    self.mocks = mocks
    self.addresses = addresses
    self.tokenEndpoints = tokenEndpoints
    self.tokens = tokens
    self.hosts = hosts
  }

  /// The GraphQL endpoints of `api` that declare no example answer: the mock, which has no
  /// schema to execute, answers them with an error that says so.
  public static func graphQLWithoutExamples(_ api: APIDefinition) -> [Endpoint] {
    GraphQLExampleAnswer.withoutExamples(api.endpoints)
  }

  /// Starts one server per API (the first on `options.port`, the next on the ports after it,
  /// or free ports for 0); returns once all listen. `report` gets the fault lines.
  public static func start(
    apis: [APIDefinition], options: MockOptions, report: @escaping @Sendable (String) -> Void
  ) async throws -> MockServer {
    var hosts: [HTTPServerHost] = []
    var addresses: [(api: String, url: String)] = []
    var tokenEndpoints: [(api: String, url: String)] = []
    let tokens = MockTokens()
    var mocks: [String: MockAPI] = [:]
    let logger = HTTPServerHost.logger(label: "apx.mock.http")
    do {
      for (i, api) in apis.enumerated() {
        let mock = MockAPI(api: api, options: options, tokens: tokens, report: report)
        mocks[api.name] = mock
        let port = options.port == 0 ? 0 : options.port + i
        // WebSocket handshakes only where the API has websocket endpoints, or GraphQL ones
        // (subscriptions over graphql-transport-ws).
        let upgrades = api.endpoints.contains { $0.kind == .websocket || $0.kind == .graphql }
        let host = try await HTTPServerHost.start(logger: logger) { onServerRunning in
          Application(
            responder: MockResponder(mock: mock),
            server: upgrades
              ? .http1WebSocketUpgrade { head, channel, _ in await mock.shouldUpgrade(head, channel: channel) }
              : .http1(),
            configuration: .init(address: .hostname(options.host, port: port), serverName: "apx-mock"),
            onServerRunning: onServerRunning, logger: logger)
        }
        hosts.append(host)
        let origin = Origin(scheme: "http", host: options.host, port: host.port).description
        addresses.append((api.name, origin))
        for endpoint in mock.tokenEndpoints {
          tokenEndpoints.append((api.name, origin + endpoint.path))
        }
      }
    } catch {
      for host in hosts { await host.stop() }
      throw error
    }
    return MockServer(
      addresses: addresses, tokenEndpoints: tokenEndpoints, tokens: tokens, hosts: hosts, mocks: mocks)
  }

  /// Starts one server on `options.host` and `options.port` that answers with recorded
  /// exchanges (`apx mock --replay`); its address is named `name`. `report` gets a line for
  /// each request nothing recorded matches. `paced`: event streams recorded with their timing
  /// are sent spaced as recorded (false: at once).
  public static func startReplay(
    _ replay: HARReplay, name: String, options: MockOptions, paced: Bool = true,
    report: @escaping @Sendable (String) -> Void
  ) async throws -> MockServer {
    let logger = HTTPServerHost.logger(label: "apx.mock.replay")
    let host = try await HTTPServerHost.start(logger: logger) { onServerRunning in
      Application(
        responder: ReplayResponder(replay: replay, report: report, paced: paced),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "apx-mock"),
        onServerRunning: onServerRunning, logger: logger)
    }
    return MockServer(
      addresses: [(name, Origin(scheme: "http", host: options.host, port: host.port).description)], hosts: [host])
  }

  /// Starts one server on `options.host` and `options.port` that hands every request to
  /// `forward` and streams its answer back (`apx mock --record`); its address is named `name`.
  public static func startProxy(
    name: String, options: MockOptions, forward: @escaping @Sendable (ProxiedRequest) async -> ProxiedResponse
  ) async throws -> MockServer {
    let logger = HTTPServerHost.logger(label: "apx.mock.record")
    let host = try await HTTPServerHost.start(logger: logger) { onServerRunning in
      Application(
        responder: ProxyResponder(forward: forward),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "apx-mock"),
        onServerRunning: onServerRunning, logger: logger)
    }
    return MockServer(
      addresses: [(name, Origin(scheme: "http", host: options.host, port: host.port).description)], hosts: [host])
  }

  /// Adds a gRPC call to the request log of `api` (`GET /__apx/requests`): its path, its
  /// metadata (credentials `***`, as for HTTP headers), the endpoint, its status code and name
  /// (`0`, `ok`), and the fault applied.
  public func logGRPCCall(
    api: String, path: String, metadata: [(name: String, value: String)], endpoint: String?, status: Int,
    statusName: String, fault: String?
  ) {
    guard let mock = mocks[api] else { return }
    let request = MockRequest(
      method: "POST", path: path, query: [], headers: metadata.map { ($0.name.lowercased(), $0.value) }, body: [])
    guard case .object(var members) = request.logEntry(endpoint: endpoint, status: status, fault: fault) else { return }
    members.insert(JSONMember("kind", .string("grpc")), at: 0)
    if let at = members.firstIndex(where: { $0.key == "status" }) {
      members.insert(JSONMember("grpc_status", .string(statusName)), at: at + 1)
    }
    mock.log.append(.object(members))
  }

  /// Stops every server; returns once their sockets are closed.
  public func stop() async {
    for host in hosts { await host.stop() }
  }

  /// Serves until the calling task is cancelled or a server fails, then stops.
  public func runUntilCancelled() async throws {
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for host in hosts { group.addTask { try await host.wait() } }
        try await withTaskCancellationHandler {
          try await group.next()
        } onCancel: {
          Task { await self.stop() }
        }
      }
    } catch is CancellationError {
      // Cancelled by the caller: a normal end.
    } catch {
      await stop()
      throw error
    }
    await stop()
  }
}
