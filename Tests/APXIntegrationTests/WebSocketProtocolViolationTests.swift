import Foundation
import Testing

/// A server that breaks RFC 6455 (`Tests/Fixtures/hostile/websocket_frames_server.py`): a
/// message over `--max-message-size` in one frame is refused by its size, and each framing
/// violation is the server's fault (exit 10, naming it), never "a bug in apx" or a size.
@Suite("WebSocket protocol violations", .timeLimit(.minutes(5)))
struct WebSocketProtocolViolationTests {
  static let server = PythonFixtureServer(
    script: "Tests/Fixtures/hostile/websocket_frames_server.py", importCheck: "import socket", scheme: "ws")

  @Test func oneFrameOverTheLimitIsRefusedByItsSize() async throws {
    try await Self.server.run { base in
      let r = try await APXProcess.run(["call", base + "/big", "--max-message-size", "1000", "-d", "{}"])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("sent a message larger than 1000 bytes"), "\(r.stderr)")
      let within = try await APXProcess.run(["call", base + "/small", "--max-message-size", "1000", "-d", "{}"])
      #expect(within.status == 0, "\(within.stderr)")
      #expect(within.stdout == "\"0123456\"\n", "\(within.stdout)")
    }
  }

  /// A 101 that RFC 6455 makes the client refuse: exit 10 naming the header, not retried as
  /// if the network had failed.
  @Test(arguments: [
    ("/badaccept", [], "its Sec-WebSocket-Accept header does not answer the Sec-WebSocket-Key sent"),
    ("/noaccept", [], "its 101 answer has no Sec-WebSocket-Accept header"),
    (
      "/protocol", ["--subprotocol", "v1"], "it chose the subprotocol \"evil\", which was not among those offered (v1)"
    ),
    ("/protocol", [], "it chose the subprotocol \"evil\", and none was offered"),
    ("/deflate", [], "it chose the extension \"permessage-deflate\", and apx offered none"),
  ])
  func aWrongUpgradeAnswerFailsTheHandshake(path: String, flags: [String], words: String) async throws {
    try await Self.server.run { base in
      let r = try await APXProcess.run(["call", base + path, "-d", "{}"] + flags)
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stderr.contains("the WebSocket handshake failed: " + words), "\(r.stderr)")
      #expect(!r.stderr.contains("retrying"), "\(r.stderr)")
    }
  }

  /// The subprotocols offered are named in the refusal, a token they carry masked.
  @Test func aRefusalNamesTheOfferedSubprotocolsWithoutTheirToken() async throws {
    try await Self.server.run { base in
      let r = try await APXProcess.run(
        ["call", base + "/protocol", "-d", "{}", "--subprotocol", "bookstrack-auth.s3cr3t-t0ken-in-proto"])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stderr.contains("which was not among those offered (bookstrack-auth.***)"), "\(r.stderr)")
      #expect(!r.stderr.contains("s3cr3t-t0ken"), "\(r.stderr)")
    }
  }

  @Test(arguments: [
    ("/ping200", "a control frame (ping, pong or close) over 125 bytes"),
    ("/fragping", "a control frame (ping, pong or close) in fragments"),
    ("/continuation", "a continuation frame with no message begun"),
    ("/interleaved", "began a new message before the last one's final fragment"),
    ("/badutf8", "it sent a text message that is not valid UTF-8 (closed with 1007)"),
  ])
  func aViolationIsTheServersFault(path: String, words: String) async throws {
    try await Self.server.run { base in
      let r = try await APXProcess.run(["call", base + path, "-d", "{}", "--no-retry"])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stderr.contains("the server broke the WebSocket protocol: "), "\(r.stderr)")
      #expect(r.stderr.contains(words), "\(r.stderr)")
      #expect(!r.stderr.contains("bug in apx") && !r.stderr.contains("larger than"), "\(r.stderr)")
    }
  }
}
