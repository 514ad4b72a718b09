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

  @Test(arguments: [
    ("/ping200", "a control frame (ping, pong or close) over 125 bytes"),
    ("/fragping", "a control frame (ping, pong or close) in fragments"),
    ("/continuation", "a continuation frame with no message begun"),
    ("/interleaved", "began a new message before the last one's final fragment"),
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
