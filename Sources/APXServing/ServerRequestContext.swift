public import Hummingbird
public import NIOCore

/// Per-request context: Hummingbird's core storage plus the connection's channel, which a
/// stream needs to close a connection on purpose (`drop_every`). The demo backend and
/// `apx mock` both serve with it.
public struct ServerRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The TCP connection this request arrived on.
  public let channel: any Channel

  public init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.channel = source.channel
  }

  /// Large enough for the biggest CSV import the demo's capabilities document advertises.
  public var maxUploadSize: Int { Self.maxUploadBytes }

  /// The largest request body a served application takes (256 MiB).
  public static let maxUploadBytes = 256 * 1024 * 1024
}
