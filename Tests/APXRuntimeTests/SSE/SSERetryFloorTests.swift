import APXCore
import APXDemoServer
import Foundation
import Testing

@testable import APXRuntime

/// A server that sends `retry: 0` gets reconnections no faster than the floor, and one
/// note about it, not one per reconnection. The waits are recorded, not slept.
@Suite("SSE: a server's retry: 0")
struct SSERetryFloorTests {
  static let api = """
    {
      "api": "ticks",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "endpoints": {
        "watch": {
          "kind": "sse", "path": "/_demo/ticks",
          "params": {
            "stream": { "in": "query" }, "n": { "in": "query" }, "drop_after": { "in": "query" },
            "retry_ms": { "in": "query" }
          },
          "until_event": ["done"],
          "reconnect": { "delays": [1], "max_failures": 3 }
        }
      }
    }
    """

  @Test func retryZeroWaitsTheFloorAndIsNotedOnce() async throws {
    try await WatchHarness.run { h in
      let api = try registry(Self.api)
      let endpoint = try #require(api.endpoint(named: "watch"))
      // Five ticks, one per connection: every reconnection brings a new event, so it goes on to the end.
      let request = CallRequest(
        api: api, endpoint: endpoint, baseURL: h.server.httpBaseURL, environmentName: "demo",
        values: [
          ("stream", .json(.string("true"))), ("n", .json(.int(5))), ("drop_after", .json(.int(1))),
          ("retry_ms", .json(.int(0))),
        ])
      let sleeper = RecordingSleeper()
      let log = WatchEventLog()
      _ = try await h.watch(sleeper).run(request, sink: log)
      #expect(log.messages.count == 6, "five ticks and done")
      #expect(sleeper.recorded.count == 5)
      #expect(sleeper.recorded.allSatisfy { $0 == SSEReconnectSchedule.serverRetryFloor }, "\(sleeper.recorded)")
      let notes = log.all.compactMap { if case .note(let text) = $0 { return text } else { return nil } }
      #expect(notes.filter { $0.contains("after 0 ms") }.count == 1, "\(notes)")
    }
  }
}
