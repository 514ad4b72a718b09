import APXCore
import NIOCore
import Testing

@testable import APXRuntime

/// The executor's retry, budget and auth layers, over a scripted transport: no network, and a
/// clock the test moves.
@Suite("Executor pipeline over a scripted transport")
struct ExecutorPipelineTests {
  static func request(auth: AuthConfig? = nil, retry: RetryConfig? = nil, timeout: Double? = nil) -> CallRequest {
    var endpoint = Endpoint(name: "get", options: .rest(HTTPRoute(path: "/x")))
    endpoint.retry = retry
    let api = APIDefinition(name: "fake", auth: auth, endpoints: [endpoint], sourceFile: "fake.json")
    return CallRequest(
      api: api, endpoint: endpoint, baseURL: "http://127.0.0.1:9", environmentName: "test", timeout: timeout)
  }

  static func run(
    _ transport: FakeTransport, _ request: CallRequest, clock: ManualClock = ManualClock(),
    tokens: CountingTokens = CountingTokens()
  ) async throws -> (CallOutcome, RecordingSink) {
    try await HTTPSession.with { session in
      let executor = Executor(session: session, environment: [:], tokens: tokens, clock: clock)
      let sink = RecordingSink()
      let policy = try executor.retryPolicy(request)
      let outcome = try await executor.perform(
        transport, request, policy: policy, attempts: AttemptCounter(), sink: sink)
      return (outcome, sink)
    }
  }

  @Test func aRetryableFailureIsSentAgainAfterTheClocksWait() async throws {
    let transport = FakeTransport([.fail(.status(503)), .fail(.status(503)), .answer(200)])
    let clock = ManualClock()
    let retry = RetryConfig(maxAttempts: 3, initialDelay: 2, multiplier: 2, jitter: false)
    let (outcome, sink) = try await Self.run(transport, Self.request(retry: retry), clock: clock)
    #expect(outcome.status == 200)
    #expect(outcome.attempts == 3)
    #expect(transport.sent.map(\.number) == [1, 2, 3])
    #expect(clock.sleeps == [2, 4])
    #expect(sink.retries.map(\.attempt) == [2, 3])
  }

  @Test func aRequestThatIsNotIdempotentIsNotSentAgain() async throws {
    let transport = FakeTransport([.fail(.status(503)), .answer(200)], safety: .notIdempotent)
    let retry = RetryConfig(maxAttempts: 3, initialDelay: 1, jitter: false)
    await #expect(throws: APXError.self) { try await Self.run(transport, Self.request(retry: retry)) }
    #expect(transport.sent.count == 1)
  }

  @Test func eachAttemptGetsWhatIsLeftOfTheBudgetOnTheInjectedClock() {
    let clock = ManualClock()
    let budget = RetryBudget(clock: clock, timeout: 10, url: "http://127.0.0.1:9")
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
    #expect(budget.attemptDeadline(from: start) == start + .seconds(10))
    // The clock moved 4 s (a retry's wait): the next attempt has 6 s left, not the whole 10.
    clock.advance(by: 4)
    #expect(budget.attemptDeadline(from: start) == start + .seconds(6))
    clock.advance(by: 30)
    #expect(budget.attemptDeadline(from: start) == start)
    let unlimited = RetryBudget(clock: clock, timeout: nil, url: "http://127.0.0.1:9")
    #expect(unlimited.attemptDeadline(from: start) == .distantFuture)
  }

  @Test func aWaitLongerThanTheBudgetGivesUpSayingSo() async throws {
    let transport = FakeTransport([.fail(.status(503), retryAfter: "30"), .answer(200)])
    let retry = RetryConfig(maxAttempts: 3, initialDelay: 1, jitter: false)
    let error = await #expect(throws: APXError.self) {
      try await Self.run(transport, Self.request(retry: retry, timeout: 5))
    }
    #expect(transport.sent.count == 1)
    #expect(error?.hint == "raise --timeout, or lower the retry delays")
  }

  @Test func refusedCredentialsAreRefreshedOnceAndReplayedWithTheNewToken() async throws {
    let transport = FakeTransport([.refuseCredentials, .answer(200)])
    let tokens = CountingTokens()
    let auth = AuthConfig.tokenCommand(command: ["unused"], lifetime: nil)
    let (outcome, sink) = try await Self.run(transport, Self.request(auth: auth), tokens: tokens)
    #expect(outcome.status == 200)
    #expect(transport.sent.map(\.token) == ["t1", "t2"])
    // A replay is not a retry: the same attempt number, and no wait.
    #expect(transport.sent.map(\.number) == [1, 1])
    #expect(sink.retries.isEmpty)
    #expect(sink.shownText.contains("signed in again"))
  }

  @Test func credentialsRefusedTwiceAreNotRefreshedAgain() async throws {
    let transport = FakeTransport([.refuseCredentials, .refuseCredentials, .answer(200)])
    let tokens = CountingTokens()
    let auth = AuthConfig.tokenCommand(command: ["unused"], lifetime: nil)
    let error = await #expect(throws: APXError.self) {
      try await Self.run(transport, Self.request(auth: auth, retry: RetryConfig(maxAttempts: 1)), tokens: tokens)
    }
    #expect(error?.status == .auth)
    #expect(tokens.count == 2)
    #expect(transport.sent.count == 2)
  }

  @Test func staticCredentialsAreNotReplayed() async throws {
    let transport = FakeTransport([.refuseCredentials, .answer(200)])
    let auth = AuthConfig.bearer(token: "static")
    await #expect(throws: APXError.self) {
      try await Self.run(transport, Self.request(auth: auth, retry: RetryConfig(maxAttempts: 1)))
    }
    #expect(transport.sent.map(\.token) == ["static"])
  }
}
