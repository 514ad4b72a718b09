import APXCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS
import NIOWebSocket

/// How a WebSocket handshake ended.
enum WebSocketHandshakeResult: Sendable {
  /// The server switched protocols: frames (batched per network read) from here on.
  case upgraded(NIOAsyncChannel<[WebSocketFrame], WebSocketFrame>, HTTPResponseHead)
  /// The server answered with another status; the start of its body, for the message.
  case refused(HTTPResponseHead, [UInt8])
}

/// Opens a WebSocket connection with NIOWebSocket's client upgrader: TCP (and TLS for
/// `wss://`), the HTTP/1.1 upgrade request, then frames. Fragmented messages are joined by
/// `NIOWebSocketFrameAggregator` up to the largest message allowed.
enum WebSocketHandshake {
  /// Where a `ws`, `wss`, `http` or `https` URL connects.
  struct Target: Sendable {
    var host: String
    var port: Int
    var tls: Bool
    /// Path and query, at least `/`.
    var pathAndQuery: String
    /// `host[:port]` as the Host header says it.
    var hostHeader: String
  }

  /// Splits `url`; nil when it is no ws, wss, http or https URL with a host.
  static func target(_ url: String) -> Target? {
    guard let schemeEnd = url.firstRange(of: "://") else { return nil }
    let scheme = url[..<schemeEnd.lowerBound].lowercased()
    let tls: Bool
    switch scheme {
    case "ws", "http": tls = false
    case "wss", "https": tls = true
    default: return nil
    }
    let rest = url[schemeEnd.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    var tail = String(rest[authorityEnd...])
    if let hash = tail.firstIndex(of: "#") { tail = String(tail[..<hash]) }
    if tail.hasPrefix("?") { tail = "/" + tail }
    if tail.isEmpty { tail = "/" }
    var host = authority[...]
    var port = tls ? 443 : 80
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      host = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if after.hasPrefix(":"), let p = Int(after.dropFirst()) { port = p }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      guard let p = Int(authority[authority.index(after: colon)...]) else { return nil }
      port = p
    }
    guard !host.isEmpty else { return nil }
    return Target(
      host: String(host), port: port, tls: tls, pathAndQuery: tail, hostHeader: String(authority))
  }

  /// Connects, sends the upgrade request with `headers`, and waits for the answer.
  ///
  /// - Parameter proxy: the HTTP proxy the target is reached through, with the target as its
  ///   errors name it. The CONNECT tunnel opens at the front of this connection, and TLS and the
  ///   handshake then run in it, end to end with the target. Through a tunnel the peer is the
  ///   proxy, so a target given by IP address has its certificate held to that address by apx
  ///   (`TunnelledAddressCheck`) before the request is sent, as curl does.
  static func open(
    _ target: Target, headers: [HeaderField], eventLoop: any EventLoop, tls: TLSConfiguration?, maxMessageSize: Int,
    connectTimeout: TimeAmount, proxy: (server: ProxyServer, shown: String)? = nil
  ) async throws -> WebSocketHandshakeResult {
    var requestHeaders = HTTPHeaders()
    requestHeaders.add(name: "Host", value: target.hostHeader)
    for header in headers where header.name.lowercased() != "host" {
      requestHeaders.add(name: header.name, value: header.value)
    }
    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target.pathAndQuery, headers: requestHeaders)
    var configuration = tls ?? .makeClientConfiguration()
    let byAddress = HostText.isIPAddress(target.host)
    let heldToAddress =
      proxy != nil && target.tls && byAddress && configuration.certificateVerification == .fullVerification
    if heldToAddress { configuration.certificateVerification = .noHostnameVerification }
    let sslContext = try target.tls ? NIOSSLContext(configuration: configuration) : nil
    let promise = eventLoop.makePromise(of: WebSocketHandshakeResult.self)
    let handshake: @Sendable (any Channel) throws -> Void = { channel in
      let sync = channel.pipeline.syncOperations
      if let sslContext {
        try sync.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: byAddress ? nil : target.host))
      }
      try sync.addHandler(InactiveAfterUpgrade())
      let encoder = HTTPRequestEncoder()
      let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
      let observer = HandshakeObserver(head: head, promise: promise, heldTo: heldToAddress ? target.host : nil)
      let upgrader = CheckedWebSocketUpgrader(
        offered: offeredSubprotocols(headers), refusal: observer.refusal,
        inner: NIOWebSocketClientUpgrader(
          // One frame is at most one message: a single 3 KB frame must not pass a limit of 1,000.
          // At least 125 bytes, the most a control frame (a ping) may carry.
          maxFrameSize: max(125, min(maxMessageSize, Int(UInt32.max))), automaticErrorHandling: false
        ) { channel, response in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
              NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 20,
                maxAccumulatedFrameSize: maxMessageSize))
            try channel.pipeline.syncOperations.addHandler(FrameBatcher())
            let frames = try NIOAsyncChannel<[WebSocketFrame], WebSocketFrame>(
              wrappingChannelSynchronously: channel)
            observer.finish(.success(.upgraded(frames, response)))
          }
        })
      let upgradeHandler = NIOHTTPClientUpgradeHandler(
        upgraders: [upgrader], httpHandlers: [encoder, decoder, observer], upgradeCompletionHandler: { _ in })
      try sync.addHandler(encoder)
      try sync.addHandler(decoder)
      try sync.addHandler(upgradeHandler)
      try sync.addHandler(observer)
    }
    let channel: any Channel
    do {
      if let proxy {
        let tunnelled = try await tunnel(to: target, through: proxy, on: eventLoop, connectTimeout: connectTimeout)
        do {
          try await tunnelled.eventLoop.submit { try handshake(tunnelled) }.get()
        } catch {
          tunnelled.close(promise: nil)
          throw error
        }
        channel = tunnelled
      } else {
        channel = try await ClientBootstrap(group: eventLoop)
          .connectTimeout(connectTimeout)
          .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try handshake(channel) } }
          .connect(host: target.host, port: target.port).get()
      }
    } catch {
      promise.fail(error)
      throw error
    }
    return try await withTaskCancellationHandler {
      try await promise.futureResult.get()
    } onCancel: {
      channel.close(promise: nil)
    }
  }

  /// A connection to `proxy` with a CONNECT tunnel to `target` open on it, its CONNECT
  /// handlers gone; a proxy that refuses or cannot be reached is the proxy's error.
  private static func tunnel(
    to target: Target, through proxy: (server: ProxyServer, shown: String), on eventLoop: any EventLoop,
    connectTimeout: TimeAmount
  ) async throws -> any Channel {
    try TunnelRelay.requireHTTP(proxy.server, for: "WebSocket connections")
    let established = eventLoop.makePromise(of: Void.self)
    let deadline = NIODeadline.now() + connectTimeout
    let headers = ProxyConnectPipeline.headers(for: proxy.server)
    let channel: any Channel
    do {
      channel = try await ClientBootstrap(group: eventLoop)
        .connectTimeout(connectTimeout)
        .channelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            try ProxyConnectPipeline.add(
              to: channel, host: target.host, port: target.port, headers: headers, deadline: deadline,
              promise: established)
          }
        }
        .connect(host: proxy.server.host, port: proxy.server.port).get()
    } catch {
      established.fail(error)
      throw TunnelRelay.describe(error, proxy: proxy.server, target: proxy.shown)
    }
    do {
      try await established.futureResult.get()
    } catch {
      channel.close(promise: nil)
      throw TunnelRelay.describe(error, proxy: proxy.server, target: proxy.shown)
    }
    try await channel.eventLoop.submit { ProxyConnectPipeline.remove(from: channel) }.get()
    return channel
  }
}

/// Sends the upgrade request once connected and reports a refused one: the upgrade handler
/// passes a non-101 answer on to this handler (the last of the HTTP ones).
private final class HandshakeObserver: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundOut = HTTPClientRequestPart

  /// The longest error body kept for the message.
  static let bodyLimit = 64 * 1024

  let head: HTTPRequestHead
  let promise: EventLoopPromise<WebSocketHandshakeResult>
  /// The IP address the server's certificate must name before the request goes out (a target
  /// reached by address through a proxy); nil: the TLS handler checks the name itself.
  let heldTo: String?
  /// Set by the upgrader when it refuses a 101 answer.
  let refusal = RefusalBox()
  private var done = false
  private var sent = false
  private var response: HTTPResponseHead?
  private var body: [UInt8] = []

  init(head: HTTPRequestHead, promise: EventLoopPromise<WebSocketHandshakeResult>, heldTo: String? = nil) {
    self.head = head
    self.promise = promise
    self.heldTo = heldTo
  }

  func finish(_ result: Result<WebSocketHandshakeResult, any Error>) {
    guard !done else { return }
    done = true
    promise.completeWith(result)
  }

  /// Added to a connection already open (a proxy's tunnel): the request goes now.
  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive, heldTo == nil { send(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    if heldTo == nil { send(context) }
    context.fireChannelActive()
  }

  /// With `heldTo`, the request waits for the TLS handshake, and goes only to a server whose
  /// certificate names that address.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let heldTo, let tls = event as? TLSUserEvent, case .handshakeCompleted = tls {
      do {
        let handler = try context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self)
        guard let leaf = handler.peerCertificate else { throw NIOSSLError.noCertificateToValidate }
        guard try TunnelledAddressCheck.names(heldTo, leaf.toDERBytes()) else {
          throw NIOSSLExtraError.failedToValidateHostname
        }
        send(context)
      } catch {
        finish(.failure(error))
        context.close(promise: nil)
      }
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func send(_ context: ChannelHandlerContext) {
    guard !sent else { return }
    sent = true
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): response = head
    case .body(let bytes):
      body.append(contentsOf: bytes.readableBytesView.prefix(Self.bodyLimit - min(body.count, Self.bodyLimit)))
    case .end:
      if let response {
        finish(.success(.refused(response, body)))
        context.close(promise: nil)
      }
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    if let response {
      finish(.success(.refused(response, body)))
    } else {
      finish(.failure(WebSocketHandshakeError.closedBeforeAnswer))
    }
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let reason = refusal.reason, (error as? NIOHTTPClientUpgradeError) == .upgraderDeniedUpgrade {
      finish(.failure(WebSocketHandshakeError.badUpgrade(reason)))
    } else {
      finish(.failure(error))
    }
    context.close(promise: nil)
  }
}

/// Passes the end of the connection on one event-loop turn late. A server that answers the
/// upgrade, sends its messages and closes at once puts it all in one read: the HTTP decoder's
/// removal, and with it the upgrade and the replay of the frames it buffered, waits for the
/// next turn, while the end of the connection would pass before the frame handlers exist and
/// the frames would be lost.
private final class InactiveAfterUpgrade: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = NIOAny

  func channelInactive(context: ChannelHandlerContext) {
    context.eventLoop.assumeIsolated().execute { context.fireChannelInactive() }
  }
}

/// Why a handshake failed without an HTTP answer apx could report.
enum WebSocketHandshakeError: Error, Sendable {
  /// The server closed the connection before answering the upgrade request.
  case closedBeforeAnswer
  /// The server answered 101 in a way RFC 6455 (4.1) makes the client refuse: the reason.
  case badUpgrade(String)
}

/// The subprotocols a handshake's headers offer.
private func offeredSubprotocols(_ headers: [HeaderField]) -> [String] {
  headers.filter { $0.name.lowercased() == "sec-websocket-protocol" }
    .flatMap { $0.value.split(separator: ",") }.map { $0.trimmingWhitespace() }
}

/// NIO's client upgrader, with the checks RFC 6455 (4.1) asks of a client's: a
/// `Sec-WebSocket-Accept` that answers the key (NIO's own check), a subprotocol that was
/// offered, and no extension (apx offers none). Why a 101 was refused is kept for the error.
private final class CheckedWebSocketUpgrader: NIOHTTPClientProtocolUpgrader, @unchecked Sendable {
  let offered: [String]
  let refusal: RefusalBox
  let inner: NIOWebSocketClientUpgrader

  init(offered: [String], refusal: RefusalBox, inner: NIOWebSocketClientUpgrader) {
    self.offered = offered
    self.refusal = refusal
    self.inner = inner
  }

  var supportedProtocol: String { inner.supportedProtocol }
  var requiredUpgradeHeaders: [String] { inner.requiredUpgradeHeaders }
  func addCustom(upgradeRequestHeaders: inout HTTPHeaders) {
    inner.addCustom(upgradeRequestHeaders: &upgradeRequestHeaders)
  }

  func shouldAllowUpgrade(upgradeResponse: HTTPResponseHead) -> Bool {
    let headers = upgradeResponse.headers
    if !inner.shouldAllowUpgrade(upgradeResponse: upgradeResponse) {
      refusal.reason =
        headers["Sec-WebSocket-Accept"].isEmpty
        ? "its 101 answer has no Sec-WebSocket-Accept header"
        : "its Sec-WebSocket-Accept header does not answer the Sec-WebSocket-Key sent"
      return false
    }
    let chosen = headers["Sec-WebSocket-Protocol"].flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace() }
    if let protocolName = chosen.first(where: { !offered.contains($0) }) ?? (chosen.count > 1 ? chosen.last : nil) {
      refusal.reason =
        offered.isEmpty
        ? "it chose the subprotocol \"\(protocolName)\", and none was offered"
        : "it chose the subprotocol \"\(protocolName)\", which was not among those offered (\(offered.joined(separator: ", ")))"
      return false
    }
    if let extensions = headers["Sec-WebSocket-Extensions"].first {
      refusal.reason = "it chose the extension \"\(extensions)\", and apx offered none"
      return false
    }
    return true
  }

  func upgrade(context: ChannelHandlerContext, upgradeResponse: HTTPResponseHead) -> EventLoopFuture<Void> {
    inner.upgrade(context: context, upgradeResponse: upgradeResponse)
  }
}

/// Why the upgrader refused a 101, set on the event loop before the handler reports the denial.
private final class RefusalBox: @unchecked Sendable {
  var reason: String?
}

/// Hands frames on once per network read, so the reader wakes once per read, not per frame.
private final class FrameBatcher: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = WebSocketFrame
  typealias InboundOut = [WebSocketFrame]

  private var frames: [WebSocketFrame] = []

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    frames.append(unwrapInboundIn(data))
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    if !frames.isEmpty {
      let batch = frames
      frames.removeAll(keepingCapacity: true)
      context.fireChannelRead(wrapInboundOut(batch))
    }
    context.fireChannelReadComplete()
  }

  func channelInactive(context: ChannelHandlerContext) {
    if !frames.isEmpty {
      let batch = frames
      frames.removeAll()
      context.fireChannelRead(wrapInboundOut(batch))
    }
    context.fireChannelInactive()
  }
}
