import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A forward proxy on 127.0.0.1 port 0 that opens CONNECT tunnels, as an office proxy does:
/// with `credentials` it answers 407 unless `Proxy-Authorization: Basic` carries them; in
/// `.refuse` it answers 502; in `.closeTunnel` it drops the connection after the CONNECT. It
/// records each CONNECT target (`host:port`) and authorization header it was sent.
final class ConnectProxyServer: Sendable {
  enum Behaviour: Sendable {
    case tunnel
    case refuse
    case closeTunnel
  }

  let port: Int
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup
  private let seen: NIOLockedValueBox<[(target: String, authorization: String?)]>

  private init(
    port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup,
    seen: NIOLockedValueBox<[(target: String, authorization: String?)]>
  ) {
    self.port = port
    self.channel = channel
    self.group = group
    self.seen = seen
  }

  /// The CONNECT targets seen so far, in order.
  var targets: [String] { seen.withLockedValue { $0.map(\.target) } }
  /// The `Proxy-Authorization` values seen so far, in order (nil where none was sent).
  var authorizations: [String?] { seen.withLockedValue { $0.map(\.authorization) } }

  /// `http://127.0.0.1:PORT`, with `user:password@` when given.
  func url(user: String? = nil, password: String? = nil) -> String {
    let userInfo = user.map { u in password.map { "\(u):\($0)@" } ?? "\(u)@" } ?? ""
    return "http://\(userInfo)127.0.0.1:\(port)"
  }

  static func start(credentials: (user: String, password: String)? = nil, behaviour: Behaviour = .tunnel)
    async throws -> ConnectProxyServer
  {
    let expected = credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
    let seen = NIOLockedValueBox<[(target: String, authorization: String?)]>([])
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 16)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let encoder = HTTPResponseEncoder()
          let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
          try channel.pipeline.syncOperations.addHandler(encoder)
          try channel.pipeline.syncOperations.addHandler(decoder)
          try channel.pipeline.syncOperations.addHandler(
            ConnectHandler(
              expected: expected, behaviour: behaviour, seen: seen, group: group, encoder: encoder, decoder: decoder))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return ConnectProxyServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group, seen: seen)
  }

  func stop() async {
    try? await channel.close()
    try? await group.shutdownGracefully()
  }

  /// Reads one CONNECT request, then relays bytes both ways.
  private final class ConnectHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let expected: String?
    let behaviour: Behaviour
    let seen: NIOLockedValueBox<[(target: String, authorization: String?)]>
    let group: MultiThreadedEventLoopGroup
    let encoder: HTTPResponseEncoder
    let decoder: ByteToMessageHandler<HTTPRequestDecoder>
    var target: (host: String, port: Int)?
    var refusal: HTTPResponseStatus?

    init(
      expected: String?, behaviour: Behaviour, seen: NIOLockedValueBox<[(target: String, authorization: String?)]>,
      group: MultiThreadedEventLoopGroup, encoder: HTTPResponseEncoder,
      decoder: ByteToMessageHandler<HTTPRequestDecoder>
    ) {
      self.expected = expected
      self.behaviour = behaviour
      self.seen = seen
      self.group = group
      self.encoder = encoder
      self.decoder = decoder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        let authorization = head.headers["proxy-authorization"].first
        seen.withLockedValue { $0.append((head.uri, authorization)) }
        guard head.method == .CONNECT, let colon = head.uri.lastIndex(of: ":"),
          let port = Int(head.uri[head.uri.index(after: colon)...])
        else {
          refusal = .methodNotAllowed
          return
        }
        if let expected, authorization != expected {
          refusal = .proxyAuthenticationRequired
        } else if behaviour == .refuse {
          refusal = .badGateway
        }
        target = (String(head.uri[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port)
      case .body:
        break
      case .end:
        if behaviour == .closeTunnel, refusal == nil {
          context.close(promise: nil)
          return
        }
        if let refusal {
          var headers = HTTPHeaders()
          headers.add(name: "content-length", value: "0")
          if refusal == .proxyAuthenticationRequired { headers.add(name: "proxy-authenticate", value: "Basic") }
          context.write(
            wrapOutboundOut(.head(.init(version: .http1_1, status: refusal, headers: headers))), promise: nil)
          context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
          self.refusal = nil
          return
        }
        guard let target else { return }
        openTunnel(context: context, to: target)
      }
    }

    private func openTunnel(context: ChannelHandlerContext, to target: (host: String, port: Int)) {
      let client = context.channel
      let loopBound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
      ClientBootstrap(group: context.eventLoop)
        // Nothing from the target before the 200 has gone out.
        .channelOption(.autoRead, value: false)
        .channelInitializer { upstream in
          upstream.eventLoop.makeCompletedFuture {
            try upstream.pipeline.syncOperations.addHandler(Relay(partner: client))
          }
        }
        .connect(host: target.host, port: target.port)
        .whenComplete { result in
          let (context, handler) = loopBound.value
          switch result {
          case .failure:
            context.close(promise: nil)
          case .success(let upstream):
            // Written raw, as proxies write it: NIO's encoder would frame a body for a 200 to CONNECT.
            let pipeline = context.pipeline.syncOperations
            try? pipeline.addHandler(Relay(partner: upstream))
            pipeline.removeHandler(handler.encoder, promise: nil)
            context.channel.writeAndFlush(
              ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n"), promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
            pipeline.removeHandler(handler.decoder, promise: nil)
            upstream.setOption(.autoRead, value: true).whenComplete { _ in upstream.read() }
          }
        }
    }
  }

  /// Writes every byte read to `partner`, and closes it when this side closes.
  private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let partner: any Channel

    init(partner: any Channel) { self.partner = partner }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
      partner.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      context.close(promise: nil)
    }
  }
}
