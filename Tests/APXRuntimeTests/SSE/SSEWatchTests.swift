import APXCore
import Testing

@testable import APXRuntime

/// `SSEWatch` against the real demo server: resume, dedupe, schedules,
/// fallback and stop conditions. Waits are recorded, never slept.
@Suite("SSE watch")
struct SSEWatchTests {
  @Test("a stream dropped every 7 events yields every event exactly once, in order")
  func droppedEvery7() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 40, query: "row_delay_ms=1&drop_every=7")
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      let outcome = try await h.watch(sleeper).run(try h.watchRequest(api, jobID: job), sink: log)
      #expect(outcome.status == 200)

      let reference = try await h.referenceEvents(job)
      let got = log.messages
      #expect(got.count == reference.count)
      for (index, (event, expected)) in zip(got, reference).enumerated() {
        #expect(event["id"]?.stringValue == expected.id, "event \(index)")
        #expect(event["event"]?.stringValue == expected.event, "event \(index)")
        let expectedData = (try? JSONParser.parse(expected.data)) ?? .string(expected.data)
        #expect(event["data"] == expectedData, "event \(index)")
      }
      #expect(got.last?["event"]?.stringValue == "complete")
      // Each resume named the last event seen.
      let drops = (reference.count - 1) / 7
      #expect(log.reconnectWaits.count == drops)
      #expect(Array(log.lastEventIDsSent.dropFirst()) == (1...drops).map { "evt-\($0 * 7)" })
      // Progress came from the declared fields and reached 100 %.
      #expect(log.fractions.last == 1.0)
    }
  }

  @Test("the server's retry: field replaces the registry's reconnect delays")
  func serverRetryOverridesDelays() async throws {
    try await WatchHarness.run { h in
      // The demo server sends `retry: 1000` on every stream.
      let api = try WatchHarness.booksAPI(replacing: [
        (WatchHarness.reconnectBlock, #""reconnect": { "delays": [7, 8, 9], "max_failures": 3 }"#)
      ])
      let job = try await h.createImport(rows: 20, query: "row_delay_ms=1&drop_every=5")
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      _ = try await h.watch(sleeper).run(try h.watchRequest(api, jobID: job), sink: log)
      #expect(!sleeper.recorded.isEmpty)
      #expect(sleeper.recorded.allSatisfy { $0 == 1.0 })
      #expect(log.reconnectWaits == sleeper.recorded)
    }
  }

  @Test("a refused stream waits per the schedule, then polls the fallback until complete")
  func refusedStreamFallsBackToPolling() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 10, query: "row_delay_ms=1&refuse_stream=1")
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      let outcome = try await h.watch(sleeper).run(try h.watchRequest(api, jobID: job), sink: log)
      #expect(outcome.status == 200)
      #expect(log.fellBack)
      // books.json: delays [1, 2, 5, 10], max_failures 3; then the fallback's 1 s interval.
      #expect(log.reconnectWaits == [1, 2, 5])
      #expect(Array(sleeper.recorded.prefix(3)) == [1, 2, 5])
      #expect(sleeper.recorded.dropFirst(3).allSatisfy { $0 == 1 })
      #expect(h.server.stats.streamsRefused == 4)
      let last = try #require(log.messages.last)
      #expect(last["event"]?.stringValue == "poll")
      #expect(last["data"]?["status"]?.stringValue == "complete")
      #expect(last["data"]?["job_id"]?.stringValue == job)
    }
  }

  @Test("reconnection waits follow the configured delays; without a fallback the watch gives up")
  func configuredScheduleThenGiveUp() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI(replacing: [
        (WatchHarness.reconnectBlock, #""reconnect": { "delays": [0.25, 0.5, 4], "max_failures": 4 }"#)
      ])
      var request = try h.watchRequest(api, jobID: try await h.createImport(rows: 3, query: "refuse_stream=1"))
      request.endpoint.setSSE(\.fallback, nil)
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(sleeper).run(request, sink: log)
      }
      #expect(error?.status == .network)
      #expect(error?.message.contains("5 connection attempts in a row failed") == true)
      // The last delay repeats.
      #expect(sleeper.recorded == [0.25, 0.5, 4, 4])
      #expect(log.messages.isEmpty)
    }
  }

  @Test("reconnections that only bring back old events count as failures: backoff, then give up")
  func replayingServerCountsAsFailing() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI(replacing: [
        (WatchHarness.reconnectBlock, #""reconnect": { "delays": [0.25, 0.5], "max_failures": 3 }"#)
      ])
      // Every connection is cut after 3 events and, ignoring Last-Event-ID, starts again from the first.
      let job = try await h.createImport(rows: 20, query: "row_delay_ms=1&drop_every=3&ignore_last_event_id=1")
      // 60 s: four short connections, but the whole suite's load once stretched them past 20 s.
      var request = try h.watchRequest(api, jobID: job, timeout: 60)
      request.endpoint.setSSE(\.fallback, nil)
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(sleeper).run(request, sink: log)
      }
      // Not a timeout after hundreds of reconnections: the failures were counted.
      #expect(error?.status == .network)
      #expect(error?.message.contains("3 connection attempts in a row failed") == true)
      #expect(sleeper.recorded.count == 3)
      // The replayed events were dropped, never printed twice.
      #expect(log.messages.count == 3)
      #expect(h.server.stats.streamConnections == 4)
    }
  }

  @Test("a failing job ends with remoteFailure and the event's message")
  func failingJob() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 10, query: "row_delay_ms=1&fail_at=0.5")
      let log = WatchEventLog()
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(RecordingSleeper()).run(try h.watchRequest(api, jobID: job), sink: log)
      }
      #expect(error?.status == .remoteFailure)
      #expect(error?.message.contains("import failed at row 5 of 10") == true)
      #expect(log.messages.last?["event"]?.stringValue == "error")
    }
  }

  @Test("a failed job seen by the polling fallback ends with remoteFailure")
  func failingJobWhilePolling() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 10, query: "row_delay_ms=1&fail_at=0.3&refuse_stream=1")
      let log = WatchEventLog()
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(RecordingSleeper()).run(try h.watchRequest(api, jobID: job), sink: log)
      }
      #expect(error?.status == .remoteFailure)
      #expect(error?.message.contains("\"failed\"") == true)
      #expect(log.messages.last?["data"]?["status"]?.stringValue == "failed")
    }
  }

  @Test("--max-events stops the watch after that many events")
  func maxEvents() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 30, query: "row_delay_ms=1")
      let log = WatchEventLog()
      _ = try await h.watch(RecordingSleeper()).run(try h.watchRequest(api, jobID: job, maxEvents: 3), sink: log)
      #expect(log.messages.map { $0["id"]?.stringValue } == ["evt-1", "evt-2", "evt-3"])
    }
  }

  @Test("--timeout ends a watch that would run longer")
  func timeout() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let job = try await h.createImport(rows: 5, query: "row_delay_ms=10000")
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(RecordingSleeper()).run(
          try h.watchRequest(api, jobID: job, timeout: 0.2), sink: WatchEventLog())
      }
      #expect(error?.status == .timeout)
    }
  }

  @Test("an unknown job is a 404 at once, not a reconnection loop")
  func unknownJob() async throws {
    try await WatchHarness.run { h in
      let api = try WatchHarness.booksAPI()
      let sleeper = RecordingSleeper()
      let error = await #expect(throws: APXError.self) {
        _ = try await h.watch(sleeper).run(try h.watchRequest(api, jobID: "imp_nope"), sink: WatchEventLog())
      }
      #expect(error?.status == .httpClientError)
      #expect(sleeper.recorded.isEmpty)
    }
  }
}
