import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call -i`: the answer's status line and headers on stdout before its body, as curl -i;
/// `-v` ends with the answer's time and size.
@Suite struct IncludeHeadTests {
  @Test func theHeadComesFirstWithCredentialsMasked() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", "-i", server.httpBaseURL + "/api/v2/bench/small", "--no-auth"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.hasPrefix("HTTP/1.1 200 OK\n"), "\(r.stdout)")
      let parts = r.stdout.components(separatedBy: "\n\n")
      #expect(parts.count == 2 && parts[0].contains("\nContent-Type: application/json"), "\(r.stdout)")
      #expect(parts[1].hasPrefix(#"{"id":42"#), "\(r.stdout)")

      let cookie = try await APXProcess.run([
        "call", "--include", server.httpBaseURL + "/_demo/cookies/set?sid=s3cr3t-head-cookie", "--no-auth",
      ])
      #expect(cookie.status == 0, "\(cookie.stderr)")
      #expect(cookie.stdout.contains("Set-Cookie: ***"), "\(cookie.stdout)")
      // The body is the answer as sent (it echoes the query); the head masks the cookie.
      let head = cookie.stdout.components(separatedBy: "\n\n")[0]
      #expect(!head.contains("s3cr3t-head-cookie"), "\(cookie.stdout)")

      let verbose = try await APXProcess.run(["call", "-v", server.httpBaseURL + "/api/v2/bench/small", "--no-auth"])
      #expect(verbose.stderr.contains(" ms, 187 bytes of body"), "\(verbose.stderr)")
      #expect(!verbose.stdout.hasPrefix("HTTP/"), "without -i stdout is the body")
    }
  }

  /// A JSON-RPC batch is one HTTP answer: its head, then the batch's results.
  @Test func aBatchPrintsItsOneHead() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "-i", "calc.add", "a:=1", "b:=2", "+", "calc.constants", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.hasPrefix("HTTP/1.1 200 OK\n"), "\(r.stdout)")
      #expect(r.stdout.components(separatedBy: "HTTP/1.1 ").count == 2, "one head: \(r.stdout)")
    }
  }

  @Test func itIsRefusedWhereAHeadCannotGo() async throws {
    for preview in ["--dry-run", "--curl"] {
      let r = try await APXProcess.run(["call", "-i", "http://127.0.0.1:9/x", preview])
      #expect(r.status == 2 && r.stderr.contains("no answer has a head for -i"), "\(preview): \(r.stderr)")
    }
    let toFile = try await APXProcess.run(["call", "-i", "http://127.0.0.1:9/x", "-O", "f.json"])
    #expect(toFile.status == 2 && toFile.stderr.contains("-O sends the body to a file"), "\(toFile.stderr)")
    let grpc = try await APXProcess.run(["call", "-i", "grpc://127.0.0.1:9/a.B/C", "-d", "{}", "--protoset", "x"])
    #expect(grpc.status == 2, "\(grpc.stderr)")
  }
}
