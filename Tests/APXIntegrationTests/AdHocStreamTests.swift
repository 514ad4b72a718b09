import APXDemoServer
import Foundation
import Testing

/// Ad-hoc streams: `--sse` follows a URL with the registry SSE engine; NDJSON and
/// JSON Lines bodies print one value per line.
@Suite("apx call URL (streams)")
struct AdHocStreamTests {
  @Test func aDroppedAdHocSSEStreamResumesWithoutLosingOrRepeatingEvents() async throws {
    try await withDemoServer { server in
      // 15 events, cut after every 4: three reconnections with Last-Event-ID.
      let job = try await SSEWatchTests.createImport(server, rows: 12, ["drop_every:=4"])
      let r = try await APXProcess.run([
        "call", "--sse", server.httpBaseURL + "/api/v2/imports/\(job)/stream", "--until-event", "complete",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let events = try SSEWatchTests.lines(r.stdout)
      #expect(events.map { $0["id"] as? String } == (1...15).map { "evt-\($0)" })
      #expect(events.last?["event"] as? String == "complete")
      #expect(r.stderr.contains("reconnecting in 1s from evt-4"), "\(r.stderr)")
      #expect(server.stats.streamsDropped == 3)

      let first = try await APXProcess.run([
        "call", "--sse", server.httpBaseURL + "/api/v2/imports/\(job)/stream", "--max-events", "2",
      ])
      #expect(first.status == 0, "\(first.stderr)")
      #expect(try SSEWatchTests.lines(first.stdout).map { $0["id"] as? String } == ["evt-1", "evt-2"])
    }
  }

  @Test func aStreamClosedWithoutAFinalEventEndsWithANoteNotSilently() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", "--sse", server.httpBaseURL + "/api/v2/bench/events?count=5"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try SSEWatchTests.lines(r.stdout).count == 5)
      #expect(r.stderr.contains("the server closed the stream after 5 events; not reconnecting"), "\(r.stderr)")
      #expect(r.stderr.contains("--until-event NAME"), "\(r.stderr)")
    }
  }

  @Test func untilEventNeedsAStream() async throws {
    let r = try await APXProcess.run(["call", "http://127.0.0.1:1/x", "--until-event", "done"])
    #expect(r.status == 2 && r.stderr.contains("--sse"), "\(r.stderr)")
  }

  @Test(arguments: ["ndjson", "jsonl"])
  func lineStreamsPrintOneValuePerLine(_ type: String) async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", server.httpBaseURL + "/_demo/lines", "n==3", "type==\(type)"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == (1...3).map { "{\"n\":\($0),\"big\":9007199254740993}\n" }.joined())
      let selected = try await APXProcess.run([
        "call", server.httpBaseURL + "/_demo/lines", "n==2", "type==\(type)", "--select", ".n",
      ])
      #expect(selected.stdout == "1\n2\n", "\(selected.stderr)")
    }
  }
}
