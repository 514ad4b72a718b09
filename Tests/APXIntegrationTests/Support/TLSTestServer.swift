import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

/// A small HTTPS server on 127.0.0.1 port 0 for the trust-store tests: it answers every request
/// on its own connection and closes it. A request that accepts `text/event-stream` gets one SSE
/// event named `done`; any other gets `{"tls": true}`. Stopped by `stop()` (and by the process
/// ending); nothing loops.
final class TLSTestServer: Sendable {
  let port: Int
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup

  private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup) {
    self.port = port
    self.channel = channel
    self.group = group
  }

  /// Serves with the PEM certificate chain and key at these paths.
  ///
  /// - Parameter clientCA: when given, the server requires a client certificate signed by the
  ///   CA in this PEM file (mutual TLS).
  /// - Parameter http2: offer HTTP/2 through ALPN (and still HTTP/1.1 to a client that asks for it).
  static func start(certificatePath: String, keyPath: String, clientCA: String? = nil, http2: Bool = false)
    async throws -> TLSTestServer
  {
    var tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) },
      privateKey: .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem)))
    if let clientCA {
      tls.certificateVerification = .noHostnameVerification
      tls.trustRoots = .file(clientCA)
    }
    if http2 { tls.applicationProtocols = ["h2", "http/1.1"] }
    let context = try NIOSSLContext(configuration: tls)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 16)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        guard http2 else {
          return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            try channel.pipeline.syncOperations.addHandler(Responder())
          }
        }
        return channel.pipeline.addHandler(NIOSSLServerHandler(context: context)).flatMap {
          channel.configureCommonHTTPServerPipeline { stream in
            stream.eventLoop.makeCompletedFuture { try stream.pipeline.syncOperations.addHandler(Responder()) }
          }
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return TLSTestServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group)
  }

  var baseURL: String { "https://127.0.0.1:\(port)" }

  func stop() async {
    try? await channel.close()
    try? await group.shutdownGracefully()
  }

  /// Answers one request and closes the connection.
  private final class Responder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard case .head(let head) = unwrapInboundIn(data) else { return }
      let sse = head.headers["accept"].contains { $0.contains("text/event-stream") }
      let body = sse ? "id: 1\nevent: done\ndata: {\"n\":1}\n\n" : "{\"tls\":true}"
      var headers = HTTPHeaders()
      headers.add(name: "content-type", value: sse ? "text/event-stream" : "application/json")
      headers.add(name: "content-length", value: String(body.utf8.count))
      // HTTP/2 has no connection-specific headers; its stream ends with the answer.
      if head.version.major < 2 { headers.add(name: "connection", value: "close") }
      context.write(
        wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
      context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
  }
}
