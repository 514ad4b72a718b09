import Foundation
import NIOCore
import NIOPosix

/// A loopback HTTP server (127.0.0.1, port 0) that answers every request with
/// scripted raw bytes, so tests can send what real servers get wrong: bad
/// framing, a lying Content-Length, invalid JSON, gzip, redirects to other
/// origins, huge events. Each connection reads one request head, writes the
/// answer (large repeated parts are streamed with back-pressure, never held
/// whole in memory) and closes.
final class HostileHTTPServer: Sendable {
  /// One piece of a raw answer.
  enum Part: Sendable {
    case bytes([UInt8])
    /// `bytes` written `count` times, one write at a time.
    case repeated([UInt8], count: Int)
    /// Nothing more, and the connection kept open: a server that never answers.
    case silence

    static func text(_ s: String) -> Part { .bytes(Array(s.utf8)) }
  }

  /// Builds the raw answer from the request head (request line and headers).
  typealias Answer = @Sendable (_ requestHead: String) -> [Part]

  let port: Int
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup

  /// `http://127.0.0.1:PORT`.
  var baseURL: String { "http://127.0.0.1:\(port)" }

  private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup) {
    self.port = port
    self.channel = channel
    self.group = group
  }

  /// Starts a server that answers with `answer`.
  static func start(_ answer: @escaping Answer) async throws -> HostileHTTPServer {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(Handler(answer: answer))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return HostileHTTPServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group)
  }

  /// Stops listening and shuts the event loop down.
  func stop() async {
    try? await channel.close().get()
    try? await group.shutdownGracefully()
  }

  /// A raw HTTP/1.1 response: status line, headers (Connection: close added), body.
  static func response(
    _ status: String = "200 OK", headers: [(String, String)] = [], body: [UInt8] = [], contentLength: Int? = -1
  ) -> [Part] {
    var head = "HTTP/1.1 \(status)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if contentLength == -1 {
      head += "Content-Length: \(body.count)\r\n"
    } else if let contentLength {
      head += "Content-Length: \(contentLength)\r\n"
    }
    head += "Connection: close\r\n\r\n"
    return [.text(head), .bytes(body)]
  }

  private final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let answer: Answer
    var received: [UInt8] = []
    var answered = false

    init(answer: @escaping Answer) { self.answer = answer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !answered else { return }
      received += Self.unwrapInboundIn(data).readableBytesView
      guard let end = received.firstRange(of: Array("\r\n\r\n".utf8)) else {
        if received.count > 65_536 { context.close(promise: nil) }
        return
      }
      answered = true
      let parts = answer(String(decoding: received[..<end.lowerBound], as: UTF8.self))
      write(parts[...], context: context)
    }

    /// Writes the parts in order, each repeat only after the previous write completed.
    private func write(_ parts: ArraySlice<Part>, context: ChannelHandlerContext) {
      guard let first = parts.first else {
        context.close(promise: nil)
        return
      }
      let rest = parts.dropFirst()
      switch first {
      case .bytes(let bytes):
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)))
          .whenComplete { result in
            if case .failure = result { return context.close(promise: nil) }
            self.write(rest, context: context)
          }
      case .silence:
        return
      case .repeated(let bytes, let count):
        guard count > 0 else { return write(rest, context: context) }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)))
          .whenComplete { result in
            if case .failure = result { return context.close(promise: nil) }
            self.write([.repeated(bytes, count: count - 1)] + rest, context: context)
          }
      }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      context.close(promise: nil)
    }
  }
}

/// Runs `body` against a hostile server answering with `answer`, stopped afterwards.
func withHostileServer<T>(
  _ answer: @escaping HostileHTTPServer.Answer, _ body: (HostileHTTPServer) async throws -> T
) async throws -> T {
  let server = try await HostileHTTPServer.start(answer)
  do {
    let result = try await body(server)
    await server.stop()
    return result
  } catch {
    await server.stop()
    throw error
  }
}

/// A registry folder with one API, `hostile`, whose endpoints all point at `/`:
/// `hostile.get` (REST GET, any `path` under it) and `hostile.events` (SSE).
func hostileRegistry() throws -> String {
  let file = try temporaryFile(
    "hostile.json",
    """
    {
      "api": "hostile",
      "environments": { "test": { "base_url": "http://127.0.0.1:9" } },
      "endpoints": {
        "get": { "kind": "rest", "method": "GET", "path": "/{path}",
          "params": { "path": { "in": "path", "required": true } } },
        "events": { "kind": "sse", "path": "/events" }
      }
    }
    """)
  return (file as NSString).deletingLastPathComponent
}

/// `data` compressed by the system's gzip (present on Linux and macOS).
func gzipped(_ data: [UInt8]) async throws -> [UInt8] {
  let gzip = FileManager.default.fileExists(atPath: "/bin/gzip") ? "/bin/gzip" : "/usr/bin/gzip"
  let r = try await ChildProcess.run(
    gzip, ["-c", "-n"], environment: ProcessInfo.processInfo.environment, stdin: data, timeout: 60)
  guard r.status == 0, !r.signaled else { throw SSEWatchTests.TestFailure("gzip failed: status \(r.status)") }
  return r.stdout
}
