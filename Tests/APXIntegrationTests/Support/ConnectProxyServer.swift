import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A forward proxy on 127.0.0.1 port 0, as an office proxy is: it opens CONNECT tunnels and
/// forwards plain requests whose target is an absolute URL (`GET http://host:port/path`), one per
/// connection. With `credentials` it answers 407 unless `Proxy-Authorization: Basic` carries
/// them; in `.refuse` it answers 502; in `.closeTunnel` it drops the connection after the
/// request. It records each request's target (`host:port` for CONNECT, the URL otherwise) and
/// authorization header.
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
          let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
          try channel.pipeline.syncOperations.addHandler(decoder)
          try channel.pipeline.syncOperations.addHandler(
            ProxyHandler(expected: expected, behaviour: behaviour, seen: seen, decoder: decoder))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return ConnectProxyServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group, seen: seen)
  }

  func stop() async {
    try? await channel.close()
    try? await group.shutdownGracefully()
  }

  /// Reads a CONNECT request and then relays bytes both ways, or forwards absolute-form requests
  /// to their server over one kept-alive connection, relaying the answers back as they come.
  /// Answers of its own are written as raw bytes, as proxies write them.
  private final class ProxyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart

    let expected: String?
    let behaviour: Behaviour
    let seen: NIOLockedValueBox<[(target: String, authorization: String?)]>
    let decoder: ByteToMessageHandler<HTTPRequestDecoder>
    /// The request being read: where it goes, and whether it is a CONNECT.
    var target: (host: String, port: Int, connect: Bool)?
    var refusal: HTTPResponseStatus?
    /// The connection to the server of forwarded requests, once open.
    var upstream: (any Channel)?
    /// Parts read before that connection opened.
    var pending: [HTTPClientRequestPart] = []
    var connecting = false

    init(
      expected: String?, behaviour: Behaviour, seen: NIOLockedValueBox<[(target: String, authorization: String?)]>,
      decoder: ByteToMessageHandler<HTTPRequestDecoder>
    ) {
      self.expected = expected
      self.behaviour = behaviour
      self.seen = seen
      self.decoder = decoder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        let authorization = head.headers["proxy-authorization"].first
        seen.withLockedValue { $0.append((head.uri, authorization)) }
        refusal = nil
        if let expected, authorization != expected {
          refusal = .proxyAuthenticationRequired
        } else if behaviour == .refuse {
          refusal = .badGateway
        }
        if head.method != .CONNECT, let url = URLComponents(string: head.uri), url.scheme == "http",
          let host = url.host
        {
          target = (host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), url.port ?? 80, false)
          guard refusal == nil else { return }
          var origin = head
          origin.uri =
            (url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)
            + (url.percentEncodedQuery.map { "?" + $0 } ?? "")
          origin.headers.remove(name: "proxy-authorization")
          send(.head(origin), context: context)
          return
        }
        guard head.method == .CONNECT, let colon = head.uri.lastIndex(of: ":"),
          let port = Int(head.uri[head.uri.index(after: colon)...])
        else {
          refusal = .methodNotAllowed
          return
        }
        target = (String(head.uri[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]")), port, true)
      case .body(let bytes):
        if refusal == nil, target?.connect == false { send(.body(.byteBuffer(bytes)), context: context) }
      case .end:
        if behaviour == .closeTunnel, refusal == nil {
          context.close(promise: nil)
          return
        }
        if let refusal {
          var answer = "HTTP/1.1 \(refusal.code) \(refusal.reasonPhrase)\r\ncontent-length: 0\r\n"
          if refusal == .proxyAuthenticationRequired { answer += "proxy-authenticate: Basic\r\n" }
          context.writeAndFlush(NIOAny(ByteBuffer(string: answer + "\r\n")), promise: nil)
          return
        }
        guard let target else { return }
        if target.connect {
          openTunnel(context: context, to: (target.host, target.port))
        } else {
          send(.end(nil), context: context)
        }
      }
    }

    /// Writes a part of a forwarded request to its server, connecting at the first one.
    private func send(_ part: HTTPClientRequestPart, context: ChannelHandlerContext) {
      if let upstream {
        if case .end = part {
          upstream.writeAndFlush(part, promise: nil)
        } else {
          upstream.write(part, promise: nil)
        }
        return
      }
      pending.append(part)
      guard !connecting, let target else { return }
      connecting = true
      let client = context.channel
      let loopBound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
      ClientBootstrap(group: context.eventLoop)
        .channelInitializer { upstream in
          upstream.eventLoop.makeCompletedFuture {
            try upstream.pipeline.syncOperations.addHandler(HTTPRequestEncoder())
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
            handler.upstream = upstream
            for part in handler.pending { upstream.write(part, promise: nil) }
            handler.pending = []
            upstream.flush()
          }
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
            let pipeline = context.pipeline.syncOperations
            try? pipeline.addHandler(Relay(partner: upstream))
            context.channel.writeAndFlush(
              ByteBuffer(string: "HTTP/1.1 200 Connection established\r\n\r\n"), promise: nil)
            pipeline.removeHandler(context: context, promise: nil)
            pipeline.removeHandler(handler.decoder, promise: nil)
            upstream.setOption(.autoRead, value: true).whenComplete { _ in upstream.read() }
          }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
      upstream?.close(promise: nil)
      context.fireChannelInactive()
    }
  }

  /// Writes every byte read to `partner`, and closes it when this side closes, once what was
  /// written has gone out.
  private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let partner: any Channel

    init(partner: any Channel) { self.partner = partner }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
      let partner = self.partner
      partner.writeAndFlush(ByteBuffer()).whenComplete { _ in partner.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      context.close(promise: nil)
    }
  }
}
