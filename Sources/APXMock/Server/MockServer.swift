public import APXCore
import APXDemoServer
import Hummingbird

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
  private let hosts: [HTTPServerHost]

  private init(addresses: [(api: String, url: String)], hosts: [HTTPServerHost]) {
    self.addresses = addresses
    self.hosts = hosts
  }

  /// Starts one server per API (the first on `options.port`, the next on the ports after it,
  /// or free ports for 0); returns once all listen. `report` gets the fault lines.
  public static func start(
    apis: [APIDefinition], options: MockOptions, report: @escaping @Sendable (String) -> Void
  ) async throws -> MockServer {
    var hosts: [HTTPServerHost] = []
    var addresses: [(api: String, url: String)] = []
    let logger = HTTPServerHost.logger(label: "apx.mock.http")
    do {
      for (i, api) in apis.enumerated() {
        let mock = MockAPI(api: api, options: options, report: report)
        let port = options.port == 0 ? 0 : options.port + i
        let host = try await HTTPServerHost.start(logger: logger) { onServerRunning in
          Application(
            responder: MockResponder(mock: mock),
            configuration: .init(address: .hostname(options.host, port: port), serverName: "apx-mock"),
            onServerRunning: onServerRunning, logger: logger)
        }
        hosts.append(host)
        let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
        addresses.append((api.name, "http://\(shownHost):\(host.port)"))
      }
    } catch {
      for host in hosts { await host.stop() }
      throw error
    }
    return MockServer(addresses: addresses, hosts: hosts)
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
    let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
    return MockServer(addresses: [(name, "http://\(shownHost):\(host.port)")], hosts: [host])
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
    let shownHost = options.host.contains(":") ? "[\(options.host)]" : options.host
    return MockServer(addresses: [(name, "http://\(shownHost):\(host.port)")], hosts: [host])
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
