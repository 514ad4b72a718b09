import APXCore
import APXDemoServer
import Foundation
import Testing

@testable import APXRuntime

/// Retries of REST calls against the real demo server, with an injected
/// clock so the waits are recorded instead of slept.
@Suite struct RESTRetryTests {
  static let api = """
    {
      "api": "retrydemo",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "retry": { "max_attempts": 4, "initial_delay": 0.5, "max_delay": 30 },
      "endpoints": {
        "flaky": {
          "kind": "rest", "method": "GET", "path": "/api/v2/flaky",
          "params": { "key": { "in": "query", "required": true }, "fail": { "in": "query" },
                      "retry_after": { "in": "query" }, "status": { "in": "query" } }
        },
        "flaky.capped": {
          "kind": "rest", "method": "GET", "path": "/api/v2/flaky", "retry": { "max_delay": 5 },
          "params": { "key": { "in": "query", "required": true }, "fail": { "in": "query" },
                      "retry_after": { "in": "query" } }
        },
        "share": {
          "kind": "rest", "method": "POST", "path": "/api/v1/demo-key/gifs/{slug}/share",
          "params": { "slug": { "in": "path", "required": true } }, "retry": { "on_status": [404] }
        },
        "share.idempotent": {
          "kind": "rest", "method": "POST", "path": "/api/v1/demo-key/gifs/{slug}/share", "idempotent": true,
          "params": { "slug": { "in": "path", "required": true } }, "retry": { "on_status": [404] }
        }
      }
    }
    """

  static let defaults = """
    {
      "api": "plain",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "endpoints": {
        "flaky": {
          "kind": "rest", "method": "GET", "path": "/api/v2/flaky",
          "params": { "key": { "in": "query", "required": true }, "fail": { "in": "query" },
                      "retry_after": { "in": "query" } }
        }
      }
    }
    """

  @Test func retriesTwo503sAndWaitsWhatRetryAfterSays() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    let outcome = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "flaky", baseURL: server.httpBaseURL,
        values: ["key": "a", "fail": "2", "retry_after": "2"])
      return try await Executor(session: session, environment: [:], clock: clock).call(request, sink: sink)
    }
    #expect(outcome.status == 200)
    #expect(clock.sleeps == [2, 2])
    #expect(sink.retries.map(\.attempt) == [2, 3])
    #expect(sink.retries.map(\.after) == [2, 2])
    #expect(sink.retries.allSatisfy { $0.reason.contains("503") })
    #expect(sink.requests.map(\.attempt) == [1, 2, 3])
    #expect(sink.body.contains("\"attempts\":3"))
  }

  @Test func retryAfterIsCappedByMaxDelay() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    _ = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "flaky.capped", baseURL: server.httpBaseURL,
        values: ["key": "b", "fail": "1", "retry_after": "100"])
      return try await Executor(session: session, environment: [:], clock: clock).call(request, sink: sink)
    }
    #expect(clock.sleeps == [5])
  }

  @Test func aWaitBeyondTheTimeoutGivesUpAtOnce() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    let error = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "flaky", baseURL: server.httpBaseURL,
        // The budget is also the first request's real deadline: 20 s, so a loaded machine
        // cannot time that request out; Retry-After 25 (under max_delay 30) is beyond it.
        values: ["key": "c", "fail": "1", "retry_after": "25"], timeout: 20)
      return await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: sink)
      }
    }
    #expect(clock.sleeps.isEmpty)
    #expect(error?.status == .httpServerError)
    #expect(error?.message.contains("time budget") == true)
  }

  @Test func aPOSTThatIsNotIdempotentIsNotRetried() async throws {
    let clock = ManualClock()
    let (error, count) = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "share", baseURL: server.httpBaseURL, values: ["slug": "no-such-gif"])
      let error = await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: RecordingSink())
      }
      return (error, requestCount(server, "share"))
    }
    #expect(count == 1)
    #expect(clock.sleeps.isEmpty)
    #expect(error?.status == .httpClientError)
    #expect(error?.retryVerdict?.contains("not idempotent") == true)
  }

  @Test func anIdempotentPOSTIsRetried() async throws {
    let clock = ManualClock()
    let count = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "share.idempotent", baseURL: server.httpBaseURL, values: ["slug": "no-such-gif"])
      _ = await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: RecordingSink())
      }
      return requestCount(server, "share")
    }
    #expect(count == 4)
    #expect(clock.sleeps.count == 3)
  }

  @Test func aPOSTWithAnIdempotencyKeyHeaderIsRetried() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    let count = try await withDemo { server, session in
      var request = try callRequest(
        try registry(Self.api), "share", baseURL: server.httpBaseURL, values: ["slug": "no-such-gif"], maxAttempts: 2)
      request.headers = [HeaderField("Idempotency-Key", "k-123")]
      _ = await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: sink)
      }
      return requestCount(server, "share")
    }
    #expect(count == 2)
  }

  @Test func noRetryMakesOneAttempt() async throws {
    let clock = ManualClock()
    let (error, attempts) = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.api), "flaky", baseURL: server.httpBaseURL, values: ["key": "d", "fail": "1"],
        maxAttempts: 1)
      let error = await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: RecordingSink())
      }
      return (error, server.stats.flakyAttempts["d"])
    }
    #expect(attempts == 1)
    #expect(error?.status == .httpServerError)
    #expect(clock.sleeps.isEmpty)
  }

  @Test func theDefaultPolicyMakesThreeAttempts() async throws {
    let clock = ManualClock()
    let (error, attempts) = try await withDemo { server, session in
      let request = try callRequest(
        try registry(Self.defaults), "flaky", baseURL: server.httpBaseURL,
        values: ["key": "e", "fail": "10", "retry_after": "0"])
      let error = await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: RecordingSink())
      }
      return (error, server.stats.flakyAttempts["e"])
    }
    #expect(attempts == 3)
    #expect(clock.sleeps == [0, 0])
    #expect(error?.message.contains("gave up after 3 attempts") == true)
  }

  @Test func connectionFailuresAreRetriedWithBackoff() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    let error = try await HTTPSession.with { session in
      // Port 1 on loopback: nothing listens there, so every attempt is refused.
      let request = try callRequest(
        try registry(Self.api), "flaky", baseURL: "http://127.0.0.1:1", values: ["key": "f"], maxAttempts: 3)
      return await #expect(throws: APXError.self) {
        try await Executor(session: session, environment: [:], clock: clock).call(request, sink: sink)
      }
    }
    #expect(error?.status == .network)
    #expect(sink.requests.count == 3)
    #expect(clock.sleeps.count == 2)
    // Full jitter: each wait lies within its exponential bound.
    #expect(clock.sleeps[0] >= 0 && clock.sleeps[0] <= 0.5)
    #expect(clock.sleeps[1] >= 0 && clock.sleeps[1] <= 1.0)
  }
}
