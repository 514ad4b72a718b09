import AsyncHTTPClient
import NIOCore
import Synchronization

/// A session's AsyncHTTPClients, each made at the first request that needs it: one for direct
/// requests and one per proxy (AsyncHTTPClient takes its proxy per client, and `NO_PROXY` or
/// `http_proxy` beside `https_proxy` send a run's requests different ways). A gRPC call, which
/// needs none, then skips making one: its configuration alone looks up the process's tracer
/// with a protocol cast (swift-distributed-tracing) that scans all ~10,800 conformance records,
/// 2.6% of an ad-hoc gRPC call's CPU (perf).
final class LazyHTTPClient: Sendable {
  /// Which way a client's connections go: through `proxy` (nil: direct), and for https:// to an IP
  /// address through it, the address its certificates are held to (`TunnelledAddressCheck`).
  struct Route: Hashable, Sendable {
    var proxy: ProxyServer?
    var tunnelledAddress: String?
  }

  private let made = Mutex<[Route: HTTPClient]>([:])
  private let eventLoopGroup: any EventLoopGroup
  private let configuration: @Sendable (Route) -> HTTPClient.Configuration

  init(
    eventLoopGroup: any EventLoopGroup, configuration: @escaping @Sendable (Route) -> HTTPClient.Configuration
  ) {
    self.eventLoopGroup = eventLoopGroup
    self.configuration = configuration
  }

  /// The direct client, made now if this is its first request.
  var client: HTTPClient { client(through: nil) }

  /// The client whose connections go through `proxy` (nil: direct), made now if needed;
  /// `checkingAddress`: the IP address an https:// target through the proxy has.
  func client(through proxy: ProxyServer?, checkingAddress address: String? = nil) -> HTTPClient {
    let route = Route(proxy: proxy, tunnelledAddress: address)
    return made.withLock { made in
      if let client = made[route] { return client }
      let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration(route))
      made[route] = client
      return client
    }
  }

  /// Whether any request has made a client.
  var wasMade: Bool { made.withLock { !$0.isEmpty } }

  /// Shuts every client made down.
  func shutdown() async throws {
    let clients = made.withLock { Array($0.values) }
    for client in clients { try await client.shutdown() }
  }
}
