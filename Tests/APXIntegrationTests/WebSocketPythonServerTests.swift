import Foundation
import Testing

/// apx against a WebSocket server it did not write: Python's `websockets`.
@Suite(
  "WebSocket against Python's websockets",
  .enabled(Comment(rawValue: WebSocketPythonServer.missing)) { await WebSocketPythonServer.found() })
struct WebSocketPythonServerTests {
  @Test func progressWithSubprotocolAuthRunsToTheCompleteMessage() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/progress", "jobId==imp_1", "--subprotocol", "bookstrack-auth.s3cr3tT0ken",
        "--until", ".type==complete", "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.map { $0["type"] as? String } == ["snapshot", "progress", "progress", "progress", "complete"])
      #expect(lines.first?["jobId"] as? String == "imp_1")
      #expect(!r.stderr.contains("s3cr3tT0ken"), "\(r.stderr)")
      #expect(r.stderr.contains("bookstrack-auth.***"), "\(r.stderr)")
    }
  }

  @Test func aRefusedHandshakeExitsByItsStatus() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/progress", "jobId==imp_1"])
      #expect(r.status == 4, "\(r.stderr)")
      #expect(r.stderr.contains("401"), "\(r.stderr)")
      let busy = try await APXProcess.run(["call", base + "/busy", "--no-retry"])
      #expect(busy.status == 5, "\(busy.stderr)")
      #expect(busy.stderr.contains("503"), "\(busy.stderr)")
    }
  }

  @Test func aFailureCloseCodeExits10WithTheCodeAndReason() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/fail"])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stdout.contains("\"started\""), "\(r.stdout)")
      #expect(r.stderr.contains("1011") && r.stderr.contains("boom"), "\(r.stderr)")
    }
  }

  @Test func dataIsSentAndTheEchoPrintedAsJSON() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/echo", "name=Ann", "n:=3", "--max-messages", "1"])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.count == 1)
      #expect(lines.first?["name"] as? String == "Ann")
      #expect(lines.first?["n"] as? Int == 3)
    }
  }

  @Test func stdinLinesAreSentAsMessages() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(
        ["call", base + "/echo", "--max-messages", "3"], stdin: Data("one\n{\"two\":2}\nthree\n".utf8))
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "\"one\"\n{\"two\":2}\n\"three\"\n", "\(r.stdout)")
    }
  }
}
