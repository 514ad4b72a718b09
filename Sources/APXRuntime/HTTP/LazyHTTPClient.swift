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
  private let made = Mutex<[ProxyServer?: HTTPClient]>([:])
  private let eventLoopGroup: any EventLoopGroup
  private let configuration: @Sendable (ProxyServer?) -> HTTPClient.Configuration

  init(
    eventLoopGroup: any EventLoopGroup, configuration: @escaping @Sendable (ProxyServer?) -> HTTPClient.Configuration
  ) {
    self.eventLoopGroup = eventLoopGroup
    self.configuration = configuration
  }

  /// The direct client, made now if this is its first request.
  var client: HTTPClient { client(through: nil) }

  /// The client whose connections go through `proxy` (nil: direct), made now if needed.
  func client(through proxy: ProxyServer?) -> HTTPClient {
    made.withLock { made in
      if let client = made[proxy] { return client }
      let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration(proxy))
      made[proxy] = client
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
