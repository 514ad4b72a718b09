import APXDemoServer
import Foundation
import Testing

/// `apx call books.imports.watch`, run as a real process against the demo
/// backend: NDJSON on stdout, notes on stderr, exit codes 0 and 10.
@Suite("apx call (SSE watch)")
struct SSEWatchTests {
  /// A registry folder holding books.json with short reconnect delays and poll
  /// interval (the CLI has no flag for them), so fallback tests run fast.
  static func fastRegistry() throws -> String {
    let source = APXProcess.packageRoot.appendingPathComponent("Endpoints/books.json")
    var text = try String(contentsOf: source, encoding: .utf8)
    let replacements = [
      (
        #""reconnect": { "delays": [1, 2, 5, 10], "max_failures": 3 }"#,
        #""reconnect": { "delays": [0.05], "max_failures": 2 }"#
      ),
      (#""interval": 1,"#, #""interval": 0.05,"#),
    ]
    for (old, new) in replacements {
      guard text.contains(old) else { throw TestFailure("Endpoints/books.json no longer contains \(old)") }
      text = text.replacingOccurrences(of: old, with: new)
    }
    let file = try temporaryFile("books.json", text)
    return URL(fileURLWithPath: file).deletingLastPathComponent().path
  }

  struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Creates an import of `rows` rows through `apx call books.imports.create` with fault-injection params.
  static func createImport(_ server: DemoServer, rows: Int, _ params: [String], rowDelayMs: Int = 1) async throws
    -> String
  {
    let csv = try temporaryFile(
      "books.csv", "title,author\n" + (1...rows).map { "Book \($0),Author \($0)\n" }.joined())
    let r = try await APXProcess.run(
      ["call", "books.imports.create", "csv=@\(csv)", "row_delay_ms:=\(rowDelayMs)"] + params + [
        "--base-url", server.httpBaseURL,
      ])
    guard r.status == 0, let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
      let id = json["job_id"] as? String
    else { throw TestFailure("import not created: \(r.status) \(r.stdout) \(r.stderr)") }
    return id
  }

  /// Every stdout line as a JSON object.
  static func lines(_ stdout: String) throws -> [[String: Any]] {
    try stdout.split(separator: "\n").map { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(line)")
      }
      return object
    }
  }

  @Test func watchPrintsOneJSONObjectPerEventAndExits0() async throws {
    try await withDemoServer { server in
      let job = try await Self.createImport(server, rows: 12, [])
      let r = try await APXProcess.run([
        "call", "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let events = try Self.lines(r.stdout)
      // queued, started, one progress per row, complete.
      #expect(events.map { $0["id"] as? String } == (1...15).map { "evt-\($0)" })
      #expect(events.first?["event"] as? String == "queued")
      #expect(events.last?["event"] as? String == "complete")
      // The multi-line `started` data arrives as one parsed JSON object.
      let started = try #require(events.first { $0["event"] as? String == "started" }?["data"] as? [String: Any])
      #expect(started["total_rows"] as? Int == 12)
      // stderr is not a terminal: no progress bar, no control characters.
      #expect(!r.stderr.contains("\u{1B}"), "\(r.stderr)")
      #expect(!r.stderr.contains("\r"))
    }
  }

  @Test func aDroppedStreamResumesWithoutRepeatingOrLosingEvents() async throws {
    try await withDemoServer { server in
      // 15 events, cut after 10: one reconnection (the server asks for 1 s with `retry:`).
      let job = try await Self.createImport(server, rows: 12, ["drop_every:=10"])
      let r = try await APXProcess.run([
        "call", "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let ids = try Self.lines(r.stdout).map { $0["id"] as? String }
      #expect(ids == (1...15).map { "evt-\($0)" })
      #expect(r.stderr.contains("reconnecting in 1s from evt-10"), "\(r.stderr)")
      #expect(server.stats.streamsDropped == 1)
    }
  }

  @Test func aRefusedStreamFallsBackToPollingAndEndsOnComplete() async throws {
    try await withDemoServer { server in
      let registry = try Self.fastRegistry()
      let job = try await Self.createImport(server, rows: 5, ["refuse_stream:=true"])
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("polling books.imports.status every"), "\(r.stderr)")
      #expect(r.stderr.contains("503"))
      let last = try #require(try Self.lines(r.stdout).last)
      #expect(last["event"] as? String == "poll")
      #expect((last["data"] as? [String: Any])?["status"] as? String == "complete")
      // max_failures 2: the first connection and two failed reconnections.
      #expect(server.stats.streamsRefused == 3)
    }
  }

  @Test func aFailingJobExits10WithItsMessage() async throws {
    try await withDemoServer { server in
      let job = try await Self.createImport(server, rows: 10, ["fail_at:=0.5"])
      let r = try await APXProcess.run([
        "call", "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stderr.contains("import failed at row 5 of 10"), "\(r.stderr)")
      #expect(try Self.lines(r.stdout).last?["event"] as? String == "error")
    }
  }

  @Test func aJobFailingWhilePolledExits10() async throws {
    try await withDemoServer { server in
      let registry = try Self.fastRegistry()
      let job = try await Self.createImport(server, rows: 10, ["fail_at:=0.5", "refuse_stream:=true"])
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stderr.contains("polling books.imports.status"))
      #expect(r.stderr.contains("import failed at row 5 of 10"), "\(r.stderr)")
    }
  }

  @Test func maxEventsAndSelect() async throws {
    try await withDemoServer { server in
      let job = try await Self.createImport(server, rows: 12, [])
      let r = try await APXProcess.run(
        [
          "call", "books.imports.watch", "job_id=\(job)", "--max-events", "3", "--select", ".event",
          "--base-url", server.httpBaseURL,
        ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "\"queued\"\n\"started\"\n\"progress\"\n")
    }
  }

  @Test func withoutAFallbackTheWatchGivesUpWithANetworkError() async throws {
    try await withDemoServer { server in
      let registry = try Self.fastRegistry()
      let file = URL(fileURLWithPath: registry).appendingPathComponent("books.json")
      var text = try String(contentsOf: file, encoding: .utf8)
      let fallback = try #require(text.range(of: #""fallback": {"#))
      let end = try #require(text.range(of: "},", range: fallback.upperBound..<text.endIndex))
      text.removeSubrange(fallback.lowerBound..<end.upperBound)
      try text.write(to: file, atomically: true, encoding: .utf8)
      let job = try await Self.createImport(server, rows: 3, ["refuse_stream:=true"])
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "books.imports.watch", "job_id=\(job)", "--base-url", server.httpBaseURL])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("3 connection attempts in a row failed"), "\(r.stderr)")
    }
  }
}
