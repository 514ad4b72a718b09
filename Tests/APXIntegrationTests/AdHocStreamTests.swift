import APXCore
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

  @Test func anEventStreamAnswerIsFollowedWithoutSSEAcrossDrops() async throws {
    try await withDemoServer { server in
      // The demo answers 406 to a client whose Accept does not list text/event-stream:
      // the ad-hoc Accept does, and the answer's type makes it a stream.
      let job = try await SSEWatchTests.createImport(server, rows: 12, ["drop_every:=4"])
      let url = server.httpBaseURL + "/api/v2/imports/\(job)/stream"
      let r = try await APXProcess.run(["call", url, "--until-event", "complete", "-v"])
      #expect(r.status == 0, "\(r.stderr)")
      let events = try SSEWatchTests.lines(r.stdout)
      #expect(events.map { $0["id"] as? String } == (1...15).map { "evt-\($0)" })
      #expect(events.last?["event"] as? String == "complete")
      #expect(r.stderr.contains("Accept: application/json, text/event-stream;q=0.9, */*;q=0.5"), "\(r.stderr)")
      #expect(r.stderr.contains("reconnecting in 1s from evt-4"), "\(r.stderr)")
      #expect(r.stderr.contains("Last-Event-ID: evt-12"), "\(r.stderr)")
      #expect(server.stats.streamsDropped == 3)

      let first = try await APXProcess.run(["call", url, "--max-events", "2"])
      #expect(first.status == 0, "\(first.stderr)")
      #expect(try SSEWatchTests.lines(first.stdout).map { $0["id"] as? String } == ["evt-1", "evt-2"])
    }
  }

  @Test func jsonOrEventsDependingOnARequestField() async throws {
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/_demo/ticks"
      let json = try await APXProcess.run(["call", url, "n==2"])
      #expect(json.status == 0, "\(json.stderr)")
      #expect(try JSONParser.parse(json.stdout) == JSONParser.parse(#"{"ticks":[{"n":1},{"n":2}]}"#))

      // GET: every drop is resumed with Last-Event-ID, no event lost or doubled.
      let get = try await APXProcess.run([
        "call", url, "stream==true", "n==7", "drop_after==3", "--until-event", "done",
      ])
      #expect(get.status == 0, "\(get.stderr)")
      let events = try SSEWatchTests.lines(get.stdout)
      #expect(events.map { $0["id"] as? String } == (1...8).map { "\($0)" })
      #expect(events.map { $0["event"] as? String } == Array(repeating: "tick", count: 7) + ["done"])
      #expect(get.stderr.components(separatedBy: "reconnecting in").count == 3, "\(get.stderr)")

      // POST with a body field: followed as a stream too.
      let post = try await APXProcess.run(["call", url, "stream:=true", "n:=3", "--until-event", "done"])
      #expect(post.status == 0, "\(post.stderr)")
      #expect(try SSEWatchTests.lines(post.stdout).map { $0["id"] as? String } == ["1", "2", "3", "4"])

      // ... but a dropped POST stream is not sent again: that could start the work twice.
      let dropped = try await APXProcess.run([
        "call", url, "stream:=true", "n:=5", "drop_after:=2", "--until-event", "done",
      ])
      #expect(dropped.status == 6, "\(dropped.stderr)")
      #expect(try SSEWatchTests.lines(dropped.stdout).map { $0["id"] as? String } == ["1", "2"])
      #expect(dropped.stderr.contains("not reconnecting: POST is not idempotent"), "\(dropped.stderr)")
    }
  }

  @Test func untilEventOnAnAnswerThatIsNotAnEventStreamIsAUsageError() async throws {
    try await withDemoServer { server in
      let json = try await APXProcess.run(["call", server.httpBaseURL + "/_demo/echo", "--until-event", "done"])
      #expect(json.status == 2, "\(json.stderr)")
      #expect(json.stderr.contains("--until-event") && json.stderr.contains("application/json"), "\(json.stderr)")
      #expect(json.stdout.isEmpty)
      let lines = try await APXProcess.run([
        "call", server.httpBaseURL + "/_demo/lines", "n==3", "--until-event", "done",
      ])
      #expect(lines.status == 2, "\(lines.stderr)")
      #expect(lines.stderr.contains("application/x-ndjson") && lines.stderr.contains("--max-events"), "\(lines.stderr)")
      #expect(lines.stdout.isEmpty)
    }
    let grpc = try await APXProcess.run(["call", "grpc://127.0.0.1:1/a.B/C", "--until-event", "done"])
    #expect(grpc.status == 2 && grpc.stderr.contains("--max-events"), "\(grpc.stderr)")
  }

  @Test(arguments: [[], ["-o", "raw"]])
  func maxEventsStopsALineStream(_ output: [String]) async throws {
    try await withDemoServer { server in
      // 100,000 lines asked for, 2 printed: the rest is never read (the connection is closed).
      let r = try await APXProcess.run(
        ["call", server.httpBaseURL + "/_demo/lines", "n==100000", "--max-events", "2"] + output)
      #expect(r.status == 0, "\(r.stderr)")
      let expected =
        output.isEmpty
        ? "{\"n\":1,\"big\":9007199254740993}\n{\"n\":2,\"big\":9007199254740993}\n"
        : "{\"n\": 1, \"big\": 9007199254740993}\n{\"n\": 2, \"big\": 9007199254740993}\n"
      #expect(r.stdout == expected)
    }
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
