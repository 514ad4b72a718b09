import Hummingbird
import NIOCore

/// Per-request context: Hummingbird's core storage plus the connection's channel,
/// which the SSE routes need to close a connection on purpose (`drop_every`). `apx mock`
/// serves with it too.
public struct DemoRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The TCP connection this request arrived on.
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.channel = source.channel
  }

  /// Large enough for the biggest CSV import the capabilities document advertises.
  public var maxUploadSize: Int { DemoLimits.maxUploadBytes }
}

/// Size limits the server enforces and advertises.
enum DemoLimits {
  /// Largest accepted import body (256 MiB).
  static let maxUploadBytes = 256 * 1024 * 1024
  /// Largest accepted form body for `POST /oauth/token`.
  static let maxFormBytes = 64 * 1024
}
