import Foundation
import Synchronization
import Testing

/// `apx call` against a server that answers what real servers get wrong.
@Suite("Hostile HTTP answers")
struct HostileServerTests {
  static func call(_ server: HostileHTTPServer, _ extra: [String], path: String = "x") async throws -> APXResult {
    try await APXProcess.run(
      ["call", "hostile.get", "path=\(path)", "--base-url", server.baseURL, "--registry", try hostileRegistry()] + extra
    )
  }

  static func json(_ body: String) -> HostileHTTPServer.Answer {
    { _ in HostileHTTPServer.response(headers: [("Content-Type", "application/json")], body: Array(body.utf8)) }
  }

  // MARK: invalid JSON is printed as received, never mixed with formatted output

  @Test(arguments: ["<html><body><h1>502 Bad Gateway</h1></body></html>\n", "{not json", "{\"items\": [1, 2, 3"])
  func invalidJSONIsPrintedExactlyWithAWarning(_ body: String) async throws {
    try await withHostileServer(Self.json(body)) { server in
      for mode in [[], ["-o", "json"], ["-o", "ndjson"]] {
        let r = try await Self.call(server, mode)
        #expect(r.status == 0, "\(mode): \(r.stderr)")
        #expect(r.stdoutBytes == Data(body.utf8), "\(mode): \(r.stdout)")
        #expect(r.stderr.contains("the response is not valid JSON"), "\(r.stderr)")
      }
    }
  }

  @Test func invalidJSONUnderSelectIsPrintedAndExits9() async throws {
    try await withHostileServer(Self.json("{not json")) { server in
      for extra in [["--select", ".a"], ["-o", "table"]] {
        let r = try await Self.call(server, extra)
        #expect(r.status == 9, "\(r.stderr)")
        #expect(r.stdout == "{not json")
        #expect(r.stderr.contains("the response is not JSON"))
      }
    }
  }

  @Test func jsonThatBreaksLateStopsTheOutputAndExits9() async throws {
    // 2 MiB of valid JSON (past the 1 MiB held back), then garbage.
    let head = "[" + String(repeating: "1234567,", count: 262_144)
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(headers: [("Content-Type", "application/json")], body: Array((head + "oops]").utf8))
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("the response stopped being valid JSON at byte \(head.utf8.count + 1)"), "\(r.stderr)")
      #expect(!r.stdout.contains("oops"))
    }
  }

  // MARK: a closed stdout is a quiet end

  @Test(arguments: [["-o", "raw"], ["-o", "json"], ["-o", "ndjson"], []])
  func closedStdoutEndsQuietly(_ mode: [String]) async throws {
    let body = "[" + String(repeating: "{\"n\":123456789},", count: 200_000) + "{}]"
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    }
    try await withHostileServer(answer) { server in
      let r = try await APXProcess.runClosingStdout(
        after: 10,
        ["call", "hostile.get", "path=x", "--base-url", server.baseURL, "--registry", try hostileRegistry()] + mode)
      #expect(r.status == 0, "\(mode): \(r.stderr)")
      #expect(r.stderr.isEmpty, "\(mode): \(r.stderr)")
    }
  }

  // MARK: gzip is decoded, never parsed compressed

  @Test func gzipBodyIsDecoded() async throws {
    let json = Array("{\"greeting\":\"hello\",\"n\":[1,2,3]}".utf8)
    let compressed = try await gzipped(json)
    let answer: HostileHTTPServer.Answer = { head in
      guard head.lowercased().contains("accept-encoding: deflate, gzip") else {
        return HostileHTTPServer.response("406 Not Acceptable", body: Array("no accept-encoding".utf8))
      }
      return HostileHTTPServer.response(
        headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: compressed)
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "{\"greeting\":\"hello\",\"n\":[1,2,3]}\n")
      #expect(!r.stderr.contains("not valid JSON"))
      let selected = try await Self.call(server, ["--select", ".greeting"])
      #expect(selected.stdout == "\"hello\"\n", "\(selected.stderr)")
      let raw = try await Self.call(server, ["-o", "raw"])
      #expect(raw.stdoutBytes == Data(json))
    }
  }

  @Test func decompressionBombIsStopped() async throws {
    let bomb = try await gzipped([UInt8](repeating: 0x20, count: 50 * 1_048_576))
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(
        headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: bomb)
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, ["-o", "raw"])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("expands more than 200 times its size"), "\(r.stderr)")
    }
  }

  @Test func anEncodingApxCannotDecodeIsNeverParsed() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(
        headers: [("Content-Type", "application/json"), ("Content-Encoding", "br")], body: [0x8B, 0x02, 0x80, 0x7B])
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 0)
      #expect(r.stdoutBytes == Data([0x8B, 0x02, 0x80, 0x7B]))
      #expect(r.stderr.contains("the body is br-encoded, which apx does not decode"), "\(r.stderr)")
      let selected = try await Self.call(server, ["--select", ".a"])
      #expect(selected.status == 9)
    }
  }

  /// An NDJSON line that is not JSON is printed as it came, except where JSON is needed:
  /// `--select` and `-o table` end with exit 9 there, as for a body that is not JSON. They
  /// used to print the line among the selected values (or above the table) and exit 0.
  @Test func anNDJSONLineThatIsNotJSONUnderSelectOrTableExits9() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(
        headers: [("Content-Type", "application/x-ndjson")], body: Array("{\"a\":1}\nnot json\n{\"a\":2}\n".utf8))
    }
    try await withHostileServer(answer) { server in
      let plain = try await Self.call(server, ["-o", "ndjson"])
      #expect(plain.status == 0, "\(plain.stderr)")
      #expect(plain.stdout == "{\"a\":1}\nnot json\n{\"a\":2}\n")
      for extra in [["--select", ".a"], ["-o", "table"]] {
        let r = try await Self.call(server, extra)
        #expect(r.status == 9, "\(extra): \(r.stderr)")
        #expect(r.stderr.contains("line 2 of the application/x-ndjson response is not JSON"), "\(r.stderr)")
        #expect(!r.stdout.contains("not json") && !r.stdout.contains("2"), "\(extra): \(r.stdout)")
      }
    }
  }

  // MARK: bodies and events past the in-memory limits end with a clear error

  @Test func selectOnABodyPastTheLimitExits9() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      [
        .text("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n["),
        .repeated(Array(String(repeating: "1234567,", count: 8192).utf8), count: 1040), .text("0]"),
      ]
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, ["--select", ".[0]"])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(
        r.stderr.contains("the response is larger than 64 MiB, the most --select reads into memory"), "\(r.stderr)")
    }
  }

  @Test func anSSEEventPastTheLimitExits9() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      [
        .text("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: \""),
        .repeated([UInt8](repeating: 0x61, count: 65_536), count: 272), .text("\"\n\n"),
      ]
    }
    try await withHostileServer(answer) { server in
      let r = try await APXProcess.run(
        ["call", "hostile.events", "--base-url", server.baseURL, "--registry", try hostileRegistry()])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("sent an event larger than 16 MiB"), "\(r.stderr)")
    }
  }

  // MARK: framing and redirects

  @Test func aLyingContentLengthIsANetworkError() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(
        headers: [("Content-Type", "application/json")], body: Array("{\"a\":".utf8), contentLength: 1000)
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("closed the connection") || r.stderr.contains("failed"), "\(r.stderr)")
    }
  }

  /// Bytes that are not HTTP (another protocol on the port, a header the parser refuses) say
  /// so, with what to check: the message was "the request failed", cause "invalid constant string".
  @Test(arguments: [
    ("\u{0}\u{1}SSH-2.0-OpenSSH\r\n\r\n", "invalid constant string"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n{}", "content-length"),
  ])
  func anAnswerThatIsNotHTTPSaysSo(_ raw: String, _ cause: String) async throws {
    try await withHostileServer({ _ in [.text(raw)] }) { server in
      let r = try await Self.call(server, ["--no-retry"])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("error: the answer from \(server.baseURL) is not valid HTTP"), "\(r.stderr)")
      #expect(r.stderr.contains(cause) && r.stderr.contains("https:// for a server that speaks TLS"), "\(r.stderr)")
    }
  }

  @Test func badChunkedFramingIsANetworkError() async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      [
        .text(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[1,2,\r\nZZ\r\n")
      ]
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 6, "\(r.stderr)")
    }
  }

  /// Framing that is broken is broken on every attempt: sent once, not retried.
  @Test(arguments: [
    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    "HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 200_000) + "\r\nContent-Length: 2\r\n\r\n{}",
  ])
  func brokenFramingIsNotRetried(_ raw: String) async throws {
    let seen = RequestHeads()
    let answer: HostileHTTPServer.Answer = { head in
      seen.heads.withLock { $0.append(head) }
      return [.text(raw)]
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, ["--retry", "3"])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(!r.stderr.contains("retrying"), "\(r.stderr)")
      #expect(seen.heads.withLock { $0.count } == 1)
    }
  }

  @Test func aRedirectToAnotherOriginIsFollowedWithoutCredentials() async throws {
    let seen = RequestHeads()
    try await withHostileServer({ head in
      seen.heads.withLock { $0.append(head) }
      return Self.json("{\"ok\":true}")(head)
    }) { target in
      try await withHostileServer({ _ in
        HostileHTTPServer.response("307 Temporary Redirect", headers: [("Location", target.baseURL + "/moved")])
      }) { server in
        let r = try await Self.call(server, ["-H", "Authorization: Bearer s3cret", "-H", "Cookie: id=s3cret"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "{\"ok\":true}\n")
      }
    }
    let head = try #require(seen.heads.withLock { $0.first })
    #expect(head.hasPrefix("GET /moved "))
    #expect(!head.lowercased().contains("authorization"), "\(head)")
    #expect(!head.contains("s3cret"), "\(head)")
  }

  @Test(arguments: ["file:///etc/passwd", "http://127.0.0.1:99999/next", "gopher://example.com/"])
  func redirectsApxWillNotFollowAreNetworkErrors(_ location: String) async throws {
    let answer: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response("302 Found", headers: [("Location", location)])
    }
    try await withHostileServer(answer) { server in
      let r = try await Self.call(server, [])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("the server redirected to \"\(location)\""), "\(r.stderr)")
    }
  }
}

/// The request heads a test server saw.
final class RequestHeads: Sendable {
  let heads = Mutex<[String]>([])
}
