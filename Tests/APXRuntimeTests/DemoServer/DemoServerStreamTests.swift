import APXDemoServer
import Foundation
import Testing

/// The import SSE stream: framing, ids, Last-Event-ID, and its faults.
@Suite("Demo server: import event stream")
struct DemoServerStreamTests {
  static let csv: String = {
    let rows: [String] = (1...8).map { "Book \($0)" }
    return (["title"] + rows).joined(separator: "\n") + "\n"
  }()

  @Test func streamCarriesTheWholeLifeCycle() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1")
      let id = try #require(created.json["job_id"] as? String)
      let reply = try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream)
      #expect(reply.status == 200)
      #expect(reply.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true)
      #expect(reply.body.hasPrefix("retry: 1000\n"))
      let sse = ParsedSSE(reply.body)
      #expect(sse.retry == 1000)
      let names = sse.events.compactMap(\.name)
      #expect(names.first == "queued")
      #expect(names.dropFirst().first == "started")
      #expect(names.last == "complete")
      #expect(names.filter { $0 == "progress" }.count == 8)
      let expectedIDs: [String] = (1...max(1, sse.events.count)).map { "evt-\($0)" }
      #expect(sse.events.compactMap(\.id) == expectedIDs)
      let started = try #require(sse.events.first { $0.name == "started" })
      #expect(started.dataLineCount > 1)
      let startedJSON = try JSONSerialization.jsonObject(with: Data(started.data.utf8)) as? [String: Any]
      #expect(startedJSON?["total_rows"] as? Int == 8)
      let progress = try #require(sse.events.first { $0.name == "progress" })
      let progressJSON = try JSONSerialization.jsonObject(with: Data(progress.data.utf8)) as? [String: Any]
      #expect(progressJSON?["processed_rows"] as? Int == 1)
      #expect(progressJSON?["total_rows"] as? Int == 8)
      let completeData = Data((sse.events.last?.data ?? "").utf8)
      let complete = try JSONSerialization.jsonObject(with: completeData) as? [String: Any]
      #expect(complete?["imported"] as? Int == 8)
      #expect(demo.server.stats.streamConnections == 1)
    }
  }

  @Test func lastEventIDResumesAfterThatEvent() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1")
      let id = try #require(created.json["job_id"] as? String)
      _ = try await demo.waitForJob(id)
      let all = ParsedSSE(try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream).body)
      let resumed = ParsedSSE(
        try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream + [("Last-Event-ID", "evt-3")])
          .body)
      #expect(resumed.events.first?.id == "evt-4")
      #expect(resumed.events.map(\.id) == all.events.dropFirst(3).map(\.id))
      #expect(resumed.events.map(\.data) == all.events.dropFirst(3).map(\.data))
      #expect(resumed.events.last?.name == "complete")
    }
  }

  @Test func dropEveryClosesTheStreamAfterKEvents() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1&drop_every=3")
      let id = try #require(created.json["job_id"] as? String)
      let first = ParsedSSE(try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream).body)
      #expect(first.events.map(\.id) == ["evt-1", "evt-2", "evt-3"])
      let second = ParsedSSE(
        try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream + [("Last-Event-ID", "evt-3")])
          .body)
      #expect(second.events.map(\.id) == ["evt-4", "evt-5", "evt-6"])
      #expect(demo.server.stats.streamsDropped == 2)
    }
  }

  // Without keep-alives the read would wait for the minute-long job: fail within a minute instead.
  @Test(.timeLimit(.minutes(5))) func silenceIsFilledWithKeepAliveComments() async throws {
    try await DemoHTTPHarness.run { demo in
      // The job stays queued for a minute (one row of 60 s): after `queued` its stream is
      // silent for as long as the test reads, however late a loaded machine sends the GET
      // or reads the body, so keep-alives must fill that silence. (A job that ends by
      // itself raced the GET under CI load: when it had finished, no silence was left.)
      let created = try await demo.createImport("title\nslow\n", query: "?row_delay_ms=60000")
      let id = try #require(created.json["job_id"] as? String)
      let text = try await demo.readStream("/api/v2/imports/\(id)/stream?keepalive_ms=20") {
        ParsedSSE($0).comments.filter { $0 == "keep-alive" }.count >= 2
      }
      let sse = ParsedSSE(text)
      // Repeated while the silence lasts, and never mistaken for an event.
      #expect(sse.comments.filter { $0 == "keep-alive" }.count >= 2)
      #expect(sse.events.map(\.id) == ["evt-1"])
      #expect(sse.events.first?.name == "queued")
      // A comment line of its own, after the event's blank line and ended by one.
      #expect(text.contains("\n\n: keep-alive\n\n"))
      #expect(demo.server.stats.streamConnections == 1)
    }
  }

  @Test func refuseStreamAnswers503WithRetryAfter() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1&refuse_stream=1")
      let id = try #require(created.json["job_id"] as? String)
      let reply = try await demo.send(.GET, "/api/v2/imports/\(id)/stream", headers: eventStream)
      #expect(reply.status == 503)
      #expect(reply.headers.first(name: "Retry-After") == "1")
      #expect((reply.json["error"] as? [String: Any])?["code"] as? String == "stream_unavailable")
      let status = try await demo.waitForJob(id)
      #expect(status["status"] as? String == "complete")
    }
  }

  @Test func benchEventsStreamsTheRequestedCount() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/api/v2/bench/events?count=10000", headers: eventStream)
      let sse = ParsedSSE(reply.body)
      #expect(sse.events.count == 10000)
      #expect(sse.events.last?.id == "10000")
      #expect(sse.events.last?.data == "{\"n\":10000}")
      #expect(sse.events.allSatisfy { $0.name == "tick" })
    }
  }
}
