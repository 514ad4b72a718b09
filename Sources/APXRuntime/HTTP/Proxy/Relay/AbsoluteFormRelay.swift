import APXCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain `http://` origin reached through an HTTP proxy the way curl and browsers reach it: each
/// request goes to the proxy with its absolute URL as the request target
/// (`GET http://host:port/path HTTP/1.1`), not through a CONNECT tunnel, which office proxies
/// commonly allow only to port 443.
///
/// AsyncHTTPClient opens a CONNECT tunnel for every proxied request and has no absolute-form
/// mode, but it connects to unix-domain sockets: this relay listens on one, in a folder only
/// this user can enter, and for each connection AsyncHTTPClient opens, connects to the proxy.
/// NIO's HTTP/1 codecs read each request AsyncHTTPClient sends and write it on with its target
/// made absolute and the proxy's credentials added; the answers come back byte for byte, for
/// AsyncHTTPClient to parse. One relay serves one origin.
enum AbsoluteFormRelay {
  /// Starts relaying requests for `origin` to `proxy` on `eventLoop`.
  ///
  /// - Parameter connectTimeout: how long connecting to the proxy may take.
  static func start(
    proxy: ProxyServer, origin: PlainHTTPOrigin, connectTimeout: TimeAmount, on eventLoop: any EventLoop
  ) async throws -> RelaySocket {
    let rewrite = AbsoluteFormForwarder.Rewrite(
      prefix: "http://" + origin.authority, authorization: proxy.basicAuthorization)
    let target = "http://" + origin.authority
    return try await RelaySocket.open(for: proxy, needs: "plain http:// calls through a proxy", on: eventLoop) {
      inbound, report in
      Self.forward(
        inbound, to: proxy, rewrite: rewrite, connectTimeout: connectTimeout,
        onOutcome: { error in
          report(
            error.map {
              ProxyFailure.diagnose($0, proxy: proxy, url: target)
                ?? ProxyFailure.error(.unreachable(cause: String(describing: $0)), proxy: proxy, target: target)
            })
        })
    }
  }

  /// Connects `inbound` (AsyncHTTPClient's connection) to the proxy; closes it when that fails.
  private static func forward(
    _ inbound: any Channel, to proxy: ProxyServer, rewrite: AbsoluteFormForwarder.Rewrite,
    connectTimeout: TimeAmount, onOutcome: @escaping @Sendable ((any Error)?) -> Void
  ) {
    ClientBootstrap(group: inbound.eventLoop)
      .connectTimeout(connectTimeout)
      .channelInitializer { upstream in
        upstream.eventLoop.makeCompletedFuture {
          // The framing headers are AsyncHTTPClient's, passed on as they came.
          var framing = HTTPRequestEncoder.Configuration()
          framing.automaticallySetFramingHeaders = false
          try upstream.pipeline.syncOperations.addHandler(HTTPRequestEncoder(configuration: framing))
          try upstream.pipeline.syncOperations.addHandler(ChannelRelay(partner: inbound))
        }
      }
      .connect(host: proxy.host, port: proxy.port)
      .whenComplete { result in
        switch result {
        case .failure(let error):
          onOutcome(error)
          inbound.close(promise: nil)
        case .success(let upstream):
          onOutcome(nil)
          inbound.eventLoop.assumeIsolated().execute {
            do {
              let pipeline = inbound.pipeline.syncOperations
              try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
              try pipeline.addHandler(AbsoluteFormForwarder(rewrite: rewrite, upstream: upstream))
              inbound.setOption(.autoRead, value: true).whenComplete { _ in inbound.read() }
            } catch {
              upstream.close(promise: nil)
              inbound.close(promise: nil)
            }
          }
        }
      }
  }
}

/// Writes each request read from AsyncHTTPClient's connection on to the proxy, its target made
/// absolute and the proxy's credentials added; reads no more while the proxy's connection
/// cannot take more (see `ChannelRelay`, which carries the answers back).
final class AbsoluteFormForwarder: ChannelDuplexHandler, Sendable {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundIn = ByteBuffer

  /// What changes in each request's head.
  struct Rewrite: Sendable {
    /// `http://host[:port]`, put before each origin-form target.
    let prefix: String
    /// The `Proxy-Authorization` value, when the proxy URL has credentials.
    let authorization: String?

    func apply(to head: inout HTTPRequestHead) {
      if head.uri.hasPrefix("/") { head.uri = prefix + head.uri }
      if let authorization { head.headers.replaceOrAdd(name: "Proxy-Authorization", value: authorization) }
    }
  }

  private let rewrite: Rewrite
  private let upstream: any Channel

  init(rewrite: Rewrite, upstream: any Channel) {
    self.rewrite = rewrite
    self.upstream = upstream
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(var head):
      rewrite.apply(to: &head)
      upstream.write(HTTPClientRequestPart.head(head), promise: nil)
    case .body(let bytes):
      upstream.write(HTTPClientRequestPart.body(.byteBuffer(bytes)), promise: nil)
    case .end(let trailers):
      upstream.write(HTTPClientRequestPart.end(trailers), promise: nil)
    }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    upstream.flush()
    context.fireChannelReadComplete()
  }

  func read(context: ChannelHandlerContext) {
    if upstream.isWritable { context.read() }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable { upstream.read() }
    context.fireChannelWritabilityChanged()
  }

  func channelInactive(context: ChannelHandlerContext) {
    // AsyncHTTPClient left: nothing more is wanted from the proxy.
    upstream.close(promise: nil)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // A request that does not parse (it came from AsyncHTTPClient, so only a broken connection).
    upstream.close(promise: nil)
    context.close(promise: nil)
  }
}
