import Testing

@testable import APXCore

/// Reconnection delays of an SSE stream and when it falls back to polling.
@Suite struct SSEReconnectScheduleTests {
  @Test func standardPolicyWaitsFiveTenTwentyThenFallsBack() {
    var schedule = SSEReconnectSchedule(policy: .standard)
    #expect(schedule.connectionEnded() == .reconnect(after: 5))  // the first connection dropped
    #expect(schedule.connectionEnded() == .reconnect(after: 10))  // reconnection 1 failed
    #expect(schedule.connectionEnded() == .reconnect(after: 20))  // reconnection 2 failed
    #expect(schedule.consecutiveFailures == 2)
    #expect(schedule.connectionEnded() == .fallBack(consecutiveFailures: 3))  // reconnection 3 failed
  }

  @Test func lastDelayRepeats() throws {
    var schedule = SSEReconnectSchedule(policy: try SSEReconnectPolicy(delays: [1, 2], maxConsecutiveFailures: 5))
    var decisions: [SSEReconnectDecision] = []
    for _ in 0..<6 { decisions.append(schedule.connectionEnded()) }
    #expect(
      decisions == [
        .reconnect(after: 1), .reconnect(after: 2), .reconnect(after: 2), .reconnect(after: 2),
        .reconnect(after: 2), .fallBack(consecutiveFailures: 5),
      ])
  }

  @Test func defaultPolicyUsesThirtyOnceTheListIsExhausted() throws {
    var schedule = SSEReconnectSchedule(policy: try SSEReconnectPolicy(maxConsecutiveFailures: 10))
    var waits: [Double] = []
    for _ in 0..<6 {
      if case .reconnect(let after) = schedule.connectionEnded() { waits.append(after) }
    }
    #expect(waits == [5, 10, 20, 30, 30, 30])
  }

  @Test func eventsResetTheFailureCount() {
    var schedule = SSEReconnectSchedule(policy: .standard)
    #expect(schedule.connectionEnded() == .reconnect(after: 5))
    #expect(schedule.connectionEnded() == .reconnect(after: 10))
    schedule.eventReceived()
    #expect(schedule.consecutiveFailures == 0)
    #expect(schedule.connectionEnded() == .reconnect(after: 5))
  }

  @Test func aStreamThatKeepsDroppingAfterProgressNeverFallsBack() {
    // The demo server drops the stream every K events: progress each time.
    var schedule = SSEReconnectSchedule(policy: .standard)
    for _ in 0..<50 {
      schedule.eventReceived()
      schedule.eventReceived()
      #expect(schedule.connectionEnded() == .reconnect(after: 5))
    }
  }

  @Test func serverRetryOverridesTheDelays() {
    var schedule = SSEReconnectSchedule(policy: .standard)
    schedule.setServerRetry(milliseconds: 1500)
    #expect(schedule.serverRetry == 1.5)
    #expect(schedule.connectionEnded() == .reconnect(after: 1.5))
    #expect(schedule.connectionEnded() == .reconnect(after: 1.5))
    #expect(schedule.connectionEnded() == .reconnect(after: 1.5))
    // The server's value does not lift the failure limit.
    #expect(schedule.connectionEnded() == .fallBack(consecutiveFailures: 3))
  }

  @Test func serverRetryOfZeroAndFromTheParser() {
    var parser = SSEParser()
    parser.feed(Array("retry: 400\ndata: x\n\n".utf8)) { _ in }
    var schedule = SSEReconnectSchedule(policy: .standard)
    let raised = parser.retry.map { schedule.setServerRetry(milliseconds: $0) }
    #expect(raised == false)
    #expect(schedule.connectionEnded() == .reconnect(after: 0.4))
    // `retry: 0` would reconnect as fast as connections open: it is raised to the floor, and says so.
    let zero = schedule.setServerRetry(milliseconds: 0)
    #expect(zero)
    #expect(schedule.connectionEnded() == .reconnect(after: SSEReconnectSchedule.serverRetryFloor))
    let negative = schedule.setServerRetry(milliseconds: -10)
    #expect(negative)
    #expect(schedule.serverRetry == 0.25)
    let atTheFloor = schedule.setServerRetry(milliseconds: 250)
    #expect(!atTheFloor)
    #expect(schedule.serverRetry == 0.25)
  }

  @Test func aServerRetryOfZeroStillEndsAfterMaxFailures() {
    // Reconnections that bring no new event fail, however short the server's delay.
    var schedule = SSEReconnectSchedule(policy: .standard)
    schedule.setServerRetry(milliseconds: 0)
    var decisions: [SSEReconnectDecision] = []
    for _ in 0..<4 { decisions.append(schedule.connectionEnded()) }
    #expect(
      decisions == [
        .reconnect(after: 0.25), .reconnect(after: 0.25), .reconnect(after: 0.25), .fallBack(consecutiveFailures: 3),
      ])
  }

  @Test func serverRetryIsCappedAtTheLimitOrThePolicysLongestDelay() throws {
    // A hostile `retry: 999999999999` (about 31 years) waits the limit, 300 s.
    var schedule = SSEReconnectSchedule(policy: .standard)
    schedule.setServerRetry(milliseconds: 999_999_999_999)
    #expect(schedule.serverRetry == SSEReconnectSchedule.serverRetryLimit)
    #expect(schedule.connectionEnded() == .reconnect(after: 300))
    schedule.setServerRetry(milliseconds: .max)
    #expect(schedule.connectionEnded() == .reconnect(after: 300))
    // Up to the limit, the server's value is kept as sent.
    schedule.setServerRetry(milliseconds: 300_000)
    #expect(schedule.serverRetry == 300)
    schedule.setServerRetry(milliseconds: 299_999)
    #expect(schedule.serverRetry == 299.999)

    // An endpoint whose own delays are longer than the limit lets the server go that far.
    var patient = SSEReconnectSchedule(policy: try SSEReconnectPolicy(delays: [60, 900, 600]))
    patient.setServerRetry(milliseconds: 999_999_999_999)
    #expect(patient.serverRetry == 900)
    patient.setServerRetry(milliseconds: .max)
    #expect(patient.connectionEnded() == .reconnect(after: 900))
    patient.setServerRetry(milliseconds: 450_000)
    #expect(patient.serverRetry == 450)
  }

  @Test func zeroMaxFailuresFallsBackWhenTheFirstConnectionEnds() throws {
    var schedule = SSEReconnectSchedule(policy: try SSEReconnectPolicy(maxConsecutiveFailures: 0))
    #expect(schedule.connectionEnded() == .fallBack(consecutiveFailures: 0))
  }

  @Test func validPoliciesAreAccepted() throws {
    #expect(try SSEReconnectPolicy() == SSEReconnectPolicy.standard)
    _ = try SSEReconnectPolicy(delays: [0], maxConsecutiveFailures: 1000)
    _ = try SSEReconnectPolicy(delays: [0.5, 1, 2], maxConsecutiveFailures: 0)
  }

  @Test func invalidPoliciesAreRejectedWithTheirPath() {
    let cases: [([Double], Int, String)] = [
      ([], 3, ".reconnect.delays"),
      ([5, -1], 3, ".reconnect.delays[1]"),
      ([.nan], 3, ".reconnect.delays[0]"),
      ([5, .infinity], 3, ".reconnect.delays[1]"),
      ([5], -1, ".reconnect.max_failures"),
      ([5], 1001, ".reconnect.max_failures"),
    ]
    for (delays, failures, path) in cases {
      var policy = SSEReconnectPolicy.standard
      policy.delays = delays
      policy.maxConsecutiveFailures = failures
      do {
        try policy.validate(path: ".reconnect")
        Issue.record("accepted \(delays) \(failures)")
      } catch {
        #expect(error.status == .invalidDefinition)
        #expect(error.path == path)
        #expect(error.hint != nil)
      }
      #expect(throws: APXError.self) { try SSEReconnectPolicy(delays: delays, maxConsecutiveFailures: failures) }
    }
  }

  @Test func unvalidatedBadDelaysNeverProduceNegativeWaits() {
    var policy = SSEReconnectPolicy.standard
    policy.delays = [-3]
    var schedule = SSEReconnectSchedule(policy: policy)
    #expect(schedule.connectionEnded() == .reconnect(after: 0))
    policy.delays = []
    schedule = SSEReconnectSchedule(policy: policy)
    #expect(schedule.connectionEnded() == .reconnect(after: 0))
  }
}
