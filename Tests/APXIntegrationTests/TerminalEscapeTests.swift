import Foundation
import Testing

/// Text a server chose reaches stderr with its terminal controls shown as `\u{1B}`, never as the
/// bytes: an ESC sequence in an error body, a header under -v or a JSON-RPC error message could
/// retitle the window, hide text or fake apx's own output. Stdout, the user's data, stays byte-exact.
@Suite("Terminal controls a server sends, on stderr")
struct TerminalEscapeTests {
  /// An OSC sequence that sets the window title to "pwned", as a hostile server would send it.
  static let retitle = "\u{1B}]0;pwned\u{07}"

  /// Stderr has no ESC, BEL or C1 control and shows each as an escape.
  static func expectEscaped(_ stderr: String, c1: Bool = false) {
    #expect(!stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(stderr.debugDescription)")
    #expect(stderr.contains(#"\u{1B}]0;pwned\u{07}"#), "\(stderr)")
    if c1 {
      #expect(!stderr.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(stderr.debugDescription)")
      #expect(stderr.contains(#"\u{9B}31m"#), "\(stderr)")
    }
  }

  @Test func anErrorBodyIsEscapedOnStderrAndExactOnStdout() async throws {
    // ESC, BEL and a C1 CSI (U+009B, as UTF-8) in a 500's body. With -O the body stays out of
    // the file and apx quotes it as the cause on stderr; without, it is the answer on stdout.
    let text = "failed \(Self.retitle) and \u{9B}31m red\r\n"
    try await withHostileServer({ _ in HostileHTTPServer.response("500 Internal Server Error", body: Array(text.utf8)) }
    ) {
      server in
      let file = try temporaryFile("kept.txt", "")
      let r = try await HostileServerTests.call(server, ["--no-retry", "-O", file])
      #expect(r.status == 5, "\(r.stderr)")
      #expect(r.stderr.contains("cause: failed "), "\(r.stderr)")
      Self.expectEscaped(r.stderr, c1: true)
      let answer = try await HostileServerTests.call(server, ["--no-retry"])
      #expect(answer.status == 5, "\(answer.stderr)")
      #expect(answer.stdout == text, "\(answer.stdout.debugDescription)")
      #expect(!answer.stderr.unicodeScalars.contains { $0.value == 0x1B }, "\(answer.stderr.debugDescription)")
    }
  }

  @Test func aHeaderUnderVerboseIsEscapedAndTheBodyIsExactOnStdout() async throws {
    // NIO refuses C0 controls in a header, but not the bytes of a C1 control in UTF-8 (obs-text).
    let body = Array("data \(Self.retitle) kept\n".utf8)
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(
        headers: [("Content-Type", "text/plain"), ("X-Note", "hello \u{9B}31m red")], body: body)
    }
    try await withHostileServer(answer) { server in
      let r = try await HostileServerTests.call(server, ["-v"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains(#"< X-Note: hello \u{9B}31m red"#), "\(r.stderr)")
      #expect(!r.stderr.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(r.stderr.debugDescription)")
      // The user's data: every byte as sent, ESC and BEL included.
      #expect(r.stdoutBytes == Data(body))
    }
  }

  @Test func aJSONRPCErrorMessageIsEscaped() async throws {
    // A single call has id 1; the message's \u001b and \u0007 are real ESC and BEL once parsed.
    let body = #"{"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "\u001b]0;pwned\u0007"}}"#
    let registry = try temporaryFile(
      "evil.json",
      """
      {
        "api": "evil",
        "environments": { "test": { "base_url": "http://127.0.0.1:9" } },
        "endpoints": { "ping": { "kind": "jsonrpc", "path": "/rpc", "rpc_method": "ping" } }
      }
      """)
    try await withHostileServer(HostileServerTests.json(body)) { server in
      let r = try await APXProcess.run(
        [
          "call", "evil.ping", "--base-url", server.baseURL, "--registry",
          (registry as NSString).deletingLastPathComponent,
        ]
      )
      #expect(r.status == 11, "\(r.stderr)")
      Self.expectEscaped(r.stderr)
    }
  }

  @Test func aGRPCStatusMessageIsEscaped() async throws {
    // The demo's NOT_FOUND message quotes the id asked for: the status message carries the ESC.
    let r = try await APXProcess.run(["call", "--demo", "classnotes.lessons.get", "id=les_\(Self.retitle)"])
    #expect(r.status == 64 + 5, "\(r.stderr)")
    #expect(r.stderr.contains("NOT_FOUND"), "\(r.stderr)")
    Self.expectEscaped(r.stderr)
  }
}
