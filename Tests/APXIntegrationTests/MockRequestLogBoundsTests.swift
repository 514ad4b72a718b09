import APXCore
import Foundation
import Testing

/// `apx mock` treats every request as hostile: its request log keeps a bounded prefix of each
/// body (credential members masked at any depth), and a body over the upload cap is a 413.
@Suite("apx mock request log bounds", .timeLimit(.minutes(5)))
struct MockRequestLogBoundsTests {
  @Test func bodiesAreLoggedMaskedAndCutToAPrefix() async throws {
    try await MockProcess.with(["shop", "--registry", try MockCommandTests.registry()]) { mock in
      let port = try mock.port()
      let small = #"{"qty": 1, "user": {"name": "ann", "password": "hunter2-s3cr3t"}, "items": [{"api_key": 7}]}"#
      _ = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: ["Content-Type": "application/json"], body: small)
      // 40 KB of JSON with a credential member first: the prefix shows it masked.
      let filler = String(repeating: "x", count: 40_000)
      let large = #"{"refresh_token": "rt-s3cr3t", "note": "\#(filler)"}"#
      _ = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: ["Content-Type": "application/json"], body: large)
      let plain = String(repeating: "y", count: 30_000)
      _ = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: ["Content-Type": "text/plain"], body: plain)
      // Over 1 MiB, JSON is not parsed to mask it, so none of it is shown (leading blanks too).
      let huge = #"  {"password": "pw-s3cr3t", "pad": "\#(String(repeating: "z", count: 1_100_000))"}"#
      _ = try await LoopbackHTTP.request(
        port: port, "POST", "/orders", headers: ["Content-Type": "application/json"], body: huge)
      let listed = try #require(try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests").json?.arrayValue)
      try #require(listed.count == 4)
      #expect(listed[3]["body"] == .string("") && listed[3]["body_bytes"] == .int(huge.utf8.count), "\(listed[3])")
      #expect(listed[0]["body"]?["user"]?["password"] == .string("***"))
      #expect(listed[0]["body"]?["user"]?["name"] == .string("ann"))
      #expect(listed[0]["body"]?["items"]?[0]?["api_key"] == .string("***"))
      #expect(listed[0]["body_truncated"] == nil)
      let cut = try #require(listed[1]["body"]?.stringValue)
      #expect(cut.utf8.count == 16 * 1024, "\(cut.utf8.count)")
      #expect(cut.hasPrefix(#"{"refresh_token":"***","note":"xxx"#), "\(cut.prefix(60))")
      #expect(listed[1]["body_bytes"] == .int(large.utf8.count))
      #expect(listed[1]["body_truncated"] == .bool(true))
      #expect(listed[2]["body"]?.stringValue == String(plain.prefix(16 * 1024)))
      #expect(listed[2]["body_bytes"] == .int(30_000))
      #expect(!listed.map(\.compactJSON).joined().contains("s3cr3t"))
    }
  }

  /// Over the 256 MiB upload cap: a 413 problem document (it was a 500), logged without a body.
  @Test func aBodyOverTheUploadCapIs413() async throws {
    try await MockProcess.with(["shop", "--registry", try MockCommandTests.registry()]) { mock in
      let port = try mock.port()
      let raw = try await Self.oversizedPost(port: port, bytes: (256 << 20) + (1 << 20))
      let answer = try LoopbackHTTP.parse(raw)
      #expect(answer.status == 413, "\(answer.status) \(answer.text)")
      #expect(
        answer.json?["detail"]?.stringValue?.contains("over 256 MiB, the most apx mock accepts") == true,
        "\(answer.text)")
      let listed = try #require(try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests").json?.arrayValue)
      #expect(listed.last?["status"] == .int(413))
      #expect(listed.last?["body"] == nil)
    }
  }

  /// POSTs `bytes` zeros in 1 MiB writes, stopping when the server stops reading, then reads
  /// the answer to its end.
  static func oversizedPost(port: Int, bytes: Int) async throws -> [UInt8] {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let fd = try connectLoopback(port: port)
            defer { _ = close(fd) }
            let head = Array(
              "POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n"
                .utf8)
            _ = send(fd, head, head.count, Int32(MSG_NOSIGNAL))
            let chunk = [UInt8](repeating: 0, count: 1 << 20)
            var sent = 0
            while sent < bytes {
              let n = send(fd, chunk, min(chunk.count, bytes - sent), Int32(MSG_NOSIGNAL))
              if n <= 0 { break }
              sent += n
            }
            return LoopbackHTTP.readToEnd(fd)
          })
      }.start()
    }
  }
}
