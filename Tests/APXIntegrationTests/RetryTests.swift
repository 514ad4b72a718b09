import APXDemoServer
import Foundation
import Testing

/// Retries end to end with the real binary and the demo server's flaky route
/// (Retry-After 0, so nothing sleeps).
@Suite struct RetryTests {
  @Test func twoFailuresThenSuccessAreRetriedAndReportedOnStderr() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", "books.flaky.get", "key=cli-a", "fail=2", "retry_after=0", "--base-url", server.httpBaseURL,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("\"attempts\":3") || result.stdout.contains("\"attempts\": 3"))
      #expect(result.stderr.components(separatedBy: "retrying in").count == 3)
      #expect(result.stderr.contains("503"))
      #expect(server.stats.flakyAttempts["cli-a"] == 3)
    }
  }

  @Test func noRetryFailsAtTheFirstError() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", "books.flaky.get", "key=cli-b", "fail=1", "retry_after=0", "--no-retry", "--base-url",
        server.httpBaseURL,
      ])
      #expect(result.status == 5)
      #expect(!result.stderr.contains("retrying"))
      #expect(server.stats.flakyAttempts["cli-b"] == 1)
    }
  }

  @Test func retryNBoundsTheAttempts() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", "books.flaky.get", "key=cli-c", "fail=5", "status=429", "retry_after=0", "--retry", "2",
        "--base-url", server.httpBaseURL,
      ])
      #expect(result.status == 4)
      #expect(result.stderr.contains("gave up after 2 attempts"))
      #expect(server.stats.flakyAttempts["cli-c"] == 2)
    }
  }

  @Test func verboseShowsEachAttempt() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", "books.flaky.get", "key=cli-d", "fail=1", "retry_after=0", "-v", "--base-url", server.httpBaseURL,
      ])
      #expect(result.status == 0)
      #expect(result.stderr.contains("(attempt 2)"))
      #expect(result.stdout.contains("attempts"))
      #expect(!result.stdout.contains("retrying"))
    }
  }
}
