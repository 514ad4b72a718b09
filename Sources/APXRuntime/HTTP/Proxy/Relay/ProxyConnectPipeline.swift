import APXCore
import NIOCore
import NIOExtras
import NIOHTTP1

/// The handlers at the front of a connection to an HTTP proxy that open a CONNECT tunnel to the
/// target (NIOExtras' `NIOHTTP1ProxyConnectHandler`), and leave once it is open, so that what the
/// client runs next (TLS, an HTTP/1.1 upgrade) goes end to end with the target on the same
/// channel. The WebSocket handshake builds its connection this way; `TunnelRelay` does it for
/// clients that dial a socket of their own (gRPC).
enum ProxyConnectPipeline {
  /// Adds the handlers to `channel`'s pipeline (on its event loop): `promise` succeeds when the
  /// proxy answers CONNECT with 2xx, and fails with NIOExtras' error otherwise (its 407, a
  /// refusal, a timeout at `deadline`, or the connection closing).
  static func add(
    to channel: any Channel, host: String, port: Int, headers: HTTPHeaders, deadline: NIODeadline,
    promise: EventLoopPromise<Void>
  ) throws {
    let pipeline = channel.pipeline.syncOperations
    try pipeline.addHandler(TunnelHeadSplitter())
    try pipeline.addHandler(HTTPRequestEncoder())
    try pipeline.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)))
    try pipeline.addHandler(
      // CONNECT names the target in authority form: an IPv6 address in brackets (RFC 9110, 9.3.6).
      NIOHTTP1ProxyConnectHandler(
        targetHost: Origin.hostInURL(host), targetPort: port, headers: headers, deadline: deadline, promise: promise))
  }

  /// Takes the handlers away once the tunnel is open (on the channel's event loop); what the
  /// target sent after the proxy's answer goes on to the handlers behind them. (The CONNECT
  /// handler may have left by itself already.)
  static func remove(from channel: any Channel) {
    let pipeline = channel.pipeline.syncOperations
    if let connect = try? pipeline.handler(type: NIOHTTP1ProxyConnectHandler.self) {
      pipeline.removeHandler(connect, promise: nil)
    }
    if let decoder = try? pipeline.handler(type: ByteToMessageHandler<HTTPResponseDecoder>.self) {
      pipeline.removeHandler(decoder, promise: nil)
    }
    if let encoder = try? pipeline.handler(type: HTTPRequestEncoder.self) {
      pipeline.removeHandler(encoder, promise: nil)
    }
    // On the next tick: the decoder leaves once its read is over.
    if let splitter = try? pipeline.handler(type: TunnelHeadSplitter.self) {
      channel.eventLoop.assumeIsolated().execute { pipeline.removeHandler(splitter, promise: nil) }
    }
  }

  /// The `Proxy-Authorization` header the proxy URL's credentials make, if any.
  static func headers(for proxy: ProxyServer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    if let authorization = proxy.basicAuthorization { headers.add(name: "Proxy-Authorization", value: authorization) }
    return headers
  }
}

/// Hands the HTTP decoder the proxy's answer to CONNECT and nothing after it, and holds what
/// follows until the decoder has left. NIO's response decoder knows that a 2xx answer to
/// CONNECT has no body, but not that the bytes after it are the tunnel's: a server that speaks
/// first (an h2c gRPC server's SETTINGS), read with the answer, was parsed as a second answer.
final class TunnelHeadSplitter: ChannelInboundHandler, RemovableChannelHandler {
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
