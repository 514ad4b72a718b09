import APXCore
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix

/// A target reached through a CONNECT tunnel of an HTTP proxy, for clients that have no proxy
/// setting of their own but connect to a unix-domain socket: grpc-swift-nio-transport (gRPC) and
/// apx's WebSocket handshake. The relay listens on a `RelaySocket` and relays each connection
/// through a tunnel that NIOExtras' `NIOHTTP1ProxyConnectHandler` opens to the target. TLS and
/// what runs over it stay the client's, end to end with the target.
enum TunnelRelay {
  /// Where a tunnel goes.
  struct Target: Sendable {
    var host: String
    var port: Int
    /// The target as errors name it (`grpcs://host:port`, `wss://host:port`).
    var shown: String
    /// What goes through it, for errors (`gRPC calls`, `WebSocket connections`).
    var calls: String
  }

  /// Starts relaying to `target` through `proxy` on `eventLoop`.
  ///
  /// - Parameter connectTimeout: how long connecting to the proxy and its CONNECT answer may take.
  static func start(
    proxy: ProxyServer, target: Target, connectTimeout: TimeAmount, on eventLoop: any EventLoop
  ) async throws -> RelaySocket {
    guard proxy.kind == .http else {
      throw APXError(
        .usage, "\(target.calls) go through HTTP proxies only, and \(proxy.display) is a SOCKS proxy",
        hint: "name an http:// proxy in --proxy or HTTPS_PROXY, or add the host to --noproxy")
    }
    var headers = HTTPHeaders()
    if let authorization = proxy.basicAuthorization { headers.add(name: "Proxy-Authorization", value: authorization) }
    let connectHeaders = headers
    return try await RelaySocket.open(for: proxy, needs: "\(target.calls) through a proxy", on: eventLoop) {
      inbound, report in
      Self.tunnel(
        inbound, proxy: proxy, target: target, headers: connectHeaders, connectTimeout: connectTimeout,
        onOutcome: { error in report(error.map { Self.describe($0, proxy: proxy, target: target.shown) }) })
    }
  }

  /// Connects `inbound` (the client's connection) through a tunnel; closes it when none opens.
  private static func tunnel(
    _ inbound: any Channel, proxy: ProxyServer, target: Target, headers: HTTPHeaders, connectTimeout: TimeAmount,
    onOutcome: @escaping @Sendable ((any Error)?) -> Void
  ) {
    let deadline = NIODeadline.now() + connectTimeout
    let established = inbound.eventLoop.makePromise(of: Void.self)
    let bootstrap = ClientBootstrap(group: inbound.eventLoop)
      .connectTimeout(connectTimeout)
      .channelInitializer { upstream in
        upstream.eventLoop.makeCompletedFuture {
          let encoder = HTTPRequestEncoder()
          let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
          let connect = NIOHTTP1ProxyConnectHandler(
            targetHost: target.host, targetPort: target.port, headers: headers, deadline: deadline,
            promise: established)
          let splitter = TunnelHeadSplitter()
          let pipeline = upstream.pipeline.syncOperations
          try pipeline.addHandler(splitter)
          try pipeline.addHandler(encoder)
          try pipeline.addHandler(decoder)
          try pipeline.addHandler(connect)
          // Once the tunnel is open the HTTP/1 handlers leave, and what the target sent after
          // the proxy's answer goes on to the relay behind them.
          established.futureResult.assumeIsolated().whenSuccess {
            try? pipeline.addHandler(ChannelRelay(partner: inbound))
            pipeline.removeHandler(connect, promise: nil)
            pipeline.removeHandler(decoder, promise: nil)
            pipeline.removeHandler(encoder, promise: nil)
            // On the next tick: the decoder leaves once its read is over.
            upstream.eventLoop.assumeIsolated().execute { pipeline.removeHandler(splitter, promise: nil) }
          }
        }
      }
    bootstrap.connect(host: proxy.host, port: proxy.port).whenComplete { result in
      switch result {
      case .failure(let error):
        established.fail(error)
      case .success(let upstream):
        established.futureResult.whenComplete { tunnel in
          switch tunnel {
          case .success:
            inbound.pipeline.addHandler(ChannelRelay(partner: upstream)).whenComplete { _ in
              inbound.setOption(.autoRead, value: true).whenComplete { _ in inbound.read() }
            }
          case .failure:
            upstream.close(promise: nil)
          }
        }
      }
    }
    established.futureResult.whenComplete { result in
      switch result {
      case .success:
        onOutcome(nil)
      case .failure(let error):
        onOutcome(error)
        inbound.close(promise: nil)
      }
    }
  }

  /// The proxy's failure, said as the proxy's.
  static func describe(_ error: any Error, proxy: ProxyServer, target: String) -> APXError {
    guard let e = error as? NIOHTTP1ProxyConnectHandler.Error else {
      return ProxyFailure.error(.unreachable(cause: String(describing: error)), proxy: proxy, target: target)
    }
    let kind: ProxyFailure.Kind =
      if e == .proxyAuthenticationRequired() {
        .authenticationRequired
      } else if e == .httpProxyHandshakeTimeout() {
        .timedOut
      } else if e == .remoteConnectionClosed() {
        .closed
      } else {
        .refused
      }
    return ProxyFailure.error(kind, proxy: proxy, target: target)
  }
}

/// Hands the HTTP decoder the proxy's answer to CONNECT and nothing after it, and holds what
/// follows until the decoder has left. NIO's response decoder knows that a 2xx answer to
/// CONNECT has no body, but not that the bytes after it are the tunnel's: a server that speaks
/// first (an h2c gRPC server's SETTINGS), read with the answer, was parsed as a second answer.
private final class TunnelHeadSplitter: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// The last bytes of the answer read so far, to find its end across reads.
  private var tail: [UInt8] = []
  /// What came after the answer, once its end has been seen.
  private var held: ByteBuffer?

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var buffer = unwrapInboundIn(data)
    if held != nil {
      held!.writeBuffer(&buffer)
      return
    }
    let bytes = buffer.readableBytesView
    var end: Int?
    var window = tail
    for (offset, byte) in bytes.enumerated() {
      window.append(byte)
      if window.count > 4 { window.removeFirst() }
      if window == [13, 10, 13, 10] {
        end = offset + 1
        break
      }
    }
    tail = window
    guard let end else {
      context.fireChannelRead(wrapInboundOut(buffer))
      return
    }
    let head = buffer.readSlice(length: end)!
    held = buffer
    context.fireChannelRead(wrapInboundOut(head))
  }

  func removeHandler(context: ChannelHandlerContext, removalToken: ChannelHandlerContext.RemovalToken) {
    if let held, held.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(held)) }
    held = nil
    context.leavePipeline(removalToken: removalToken)
  }
}
