import AsyncHTTPClient
import NIOCore
import Synchronization

/// A session's AsyncHTTPClient, made at its first request. A gRPC call, which needs none,
/// then skips making one: its configuration alone looks up the process's tracer with a
/// protocol cast (swift-distributed-tracing) that scans all ~10,800 conformance records, 2.6%
/// of an ad-hoc gRPC call's CPU (perf).
final class LazyHTTPClient: Sendable {
  private let made = Mutex<HTTPClient?>(nil)
  private let eventLoopGroup: any EventLoopGroup
  private let configuration: @Sendable () -> HTTPClient.Configuration

  init(eventLoopGroup: any EventLoopGroup, configuration: @escaping @Sendable () -> HTTPClient.Configuration) {
    self.eventLoopGroup = eventLoopGroup
    self.configuration = configuration
  }

  /// The client, made now if this is the first request.
  var client: HTTPClient {
    made.withLock { made in
      if let made { return made }
      let client = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration())
      made = client
      return client
    }
  }

  /// Whether the first request has made the client.
  var wasMade: Bool { made.withLock { $0 != nil } }

  /// Shuts the client down, if one was made.
  func shutdown() async throws {
    if let client = made.withLock({ $0 }) { try await client.shutdown() }
  }
}
