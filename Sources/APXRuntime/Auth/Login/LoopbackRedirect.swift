public import APXCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The redirect listener of a native app's login (RFC 8252 §7.3): an HTTP server on
/// 127.0.0.1 that waits for the browser to bring back the authorization response, answers it
/// with a page saying the browser may be closed, and stops. Other requests (a favicon, a
/// browser's speculative connection) get 404 or nothing, and do not end the wait.
final class LoopbackRedirect: Sendable {
  /// The port it listens on (the one asked for, or a free one).
  let port: Int
  /// The redirect URI's path, e.g. `/callback`.
  let path: String
  private let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>

  /// `http://127.0.0.1:PORT/PATH`, the `redirect_uri` of the request.
  var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

  private init(
    port: Int, path: String,
    server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
  ) {
    self.port = port
    self.path = path
    self.server = server
  }

  /// Listens on 127.0.0.1:`port` (0: a free port).
  /// - Throws: `.auth` when the port is taken, naming it.
  static func start(port: Int, path: String) async throws -> LoopbackRedirect {
    do {
      let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .bind(host: "127.0.0.1", port: port) { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline()
            return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
              wrappingChannelSynchronously: channel)
          }
        }
      return LoopbackRedirect(port: server.channel.localAddress?.port ?? port, path: path, server: server)
    } catch {
      throw APXError(
        .auth, "cannot listen for the login's redirect on 127.0.0.1:\(port): \(error)",
        hint: port == 0
          ? "check that 127.0.0.1 is up" : "another program holds port \(port): stop it, or change redirect_port")
    }
  }

  /// The query parameters of the first request to `path`, answered with a closing page.
  func response() async throws -> [String: String] {
    try await server.executeThenClose { connections in
      try await withThrowingTaskGroup(of: [String: String]?.self) { group in
        group.addTask {
          for try await connection in connections {
            // Each connection on its own: a browser's idle pre-connection must not hold the wait.
            if let query = try? await Self.serve(connection, path: self.path) { return query }
          }
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let query = first else {
          throw APXError(.auth, "the login's redirect listener stopped before the browser came back")
        }
        return query
      }
    }
  }

  /// Reads one request; the query when it is the redirect, else nil after a 404.
  private static func serve(
    _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, path: String
  ) async throws -> [String: String]? {
    try await connection.executeThenClose { inbound, outbound in
      var head: HTTPRequestHead?
      for try await part in inbound {
        switch part {
        case .head(let h): head = h
        case .body: continue
        case .end:
          guard let head else { return nil }
          let (requestPath, query) = split(head.uri)
          let matched = requestPath == path && head.method == .GET
          let text =
            !matched
            ? "Not found."
            : query["code"] != nil
              ? "apx received the login. You can close this window and return to the terminal."
              : "apx received the answer: \(query["error"] ?? "no code"). Return to the terminal to see it."
          let body = Array("<!doctype html><title>apx</title><p>\(HTMLText.escape(text))</p>\n".utf8)
          var headers = HTTPHeaders()
          headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
          headers.add(name: "Content-Length", value: "\(body.count)")
          headers.add(name: "Connection", value: "close")
          headers.add(name: "Cache-Control", value: "no-store")
          try await outbound.write(
            .head(HTTPResponseHead(version: .http1_1, status: matched ? .ok : .notFound, headers: headers)))
          try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
          try await outbound.write(.end(nil))
          return matched ? query : nil
        }
      }
      return nil
    }
  }

  /// The path and the decoded query parameters of a request target.
  static func split(_ uri: String) -> (String, [String: String]) {
    guard let mark = uri.firstIndex(of: "?") else { return (uri, [:]) }
    var query: [String: String] = [:]
    for pair in uri[uri.index(after: mark)...].split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decoded(_ part: Substring) -> String { PercentDecoding.decode(String(part).replacing("+", with: " ")) }
      let name = decoded(parts[0])
      // The first of a repeated parameter counts (RFC 6749 §3.1: none may repeat).
      if query[name] == nil { query[name] = parts.count > 1 ? decoded(parts[1]) : "" }
    }
    return (String(uri[..<mark]), query)
  }
}

/// Text made safe inside an HTML page.
enum HTMLText {
  static func escape(_ text: String) -> String {
    var out = ""
    for c in text {
      switch c {
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\"": out += "&quot;"
      default: out.append(c)
      }
    }
    return out
  }
}
