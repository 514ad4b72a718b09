import APXCore
import APXRuntime
import Foundation
import Testing

/// gRPC retries in apx's own retry layer: whatever
/// shape the failure takes on the wire, however many attempts are allowed,
/// and never for what another attempt cannot change.
@Suite("gRPC retries", .serialized)
struct GRPCRetryTests {
  static func faults(_ times: Int, key: String, shape: String? = nil) -> [HeaderField] {
    var fields = [HeaderField("x-demo-fail-times", "\(times)"), HeaderField("x-demo-key", key)]
    if let shape { fields.append(HeaderField("x-demo-fail-shape", shape)) }
    return fields
  }

  @Test func unavailableAfterInitialMetadataIsRetried() async throws {
    // grpcio servers send initial metadata before UNAVAILABLE; GRPCCore's own
    // retries treat such a call as committed and make one attempt only.
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: Self.faults(2, key: "headers-\(UUID().uuidString)", shape: "after-headers"), clock: NoWaitClock())
      #expect(log.messages.first?["id"] == .string("les_0001"))
      #expect(log.attempts == [1, 2, 3])
      #expect(log.retries.count == 2)
      #expect(log.retries.first?.reason.contains("UNAVAILABLE") == true)
    }
  }

  @Test func tenAttemptsAreTenNotFive() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: Self.faults(8, key: "ten-\(UUID().uuidString)", shape: "after-headers"), maxAttempts: 10,
        clock: NoWaitClock())
      #expect(log.attempts == Array(1...9))
      #expect(log.messages.count == 1)
    }
  }

  @Test func exhaustedAttemptsSayHowMany() async throws {
    try await GRPCHarness.run { h in
      let log = GRPCEventLog()
      var failure: APXError?
      do {
        try await h.call(
          try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
          headers: Self.faults(9, key: "many-\(UUID().uuidString)"), maxAttempts: 6, log: log, clock: NoWaitClock())
      } catch let error as APXError {
        failure = error
      }
      #expect(failure?.status == .grpc(code: 14))
      #expect(failure?.message.contains("gave up after 6 attempts") == true)
      #expect(log.attempts == Array(1...6))
    }
  }

  @Test func refusedConnectionIsRetriedWithoutATLSHint() async throws {
    try await GRPCHarness.run { h in
      let log = GRPCEventLog()
      var failure: APXError?
      do {
        try await withClosedLoopbackPort { port in
          try await h.call(
            try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))], maxAttempts: 3,
            baseURL: "grpc://127.0.0.1:\(port)", log: log, clock: NoWaitClock())
        }
      } catch let error as APXError {
        failure = error
      }
      #expect(log.attempts == [1, 2, 3])
      #expect(failure?.status == .grpc(code: 14))
      #expect(failure?.hint?.contains("is the server running") == true)
      #expect(failure?.hint?.contains("TLS") == false)
    }
  }

  @Test func aTLSHandshakeFailureIsNotRetried() async throws {
    try await GRPCHarness.run { h in
      let log = GRPCEventLog()
      var failure: APXError?
      do {
        try await h.call(
          try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))], maxAttempts: 4,
          baseURL: "grpcs://127.0.0.1:\(h.server.port)", log: log, clock: NoWaitClock())
      } catch let error as APXError {
        failure = error
      }
      #expect(failure?.message.contains("TLS") == true)
      #expect(log.attempts == [1])
    }
  }

  @Test func everyCallEndsWithOneFinishedEvent() async throws {
    try await GRPCHarness.run { h in
      let log = try await h.call(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: Self.faults(1, key: "final-\(UUID().uuidString)"), clock: NoWaitClock())
      let finals = log.all.compactMap { if case .finished(let s, let a, let f) = $0 { (s, a, f) } else { nil } }
      #expect(finals.count == 1)
      #expect(finals.first?.1 == 2)
      #expect(finals.first?.2 == nil)
      if case .finished = log.all.last {} else { Issue.record("the last event is not .finished") }
    }
  }
}

/// A clock whose waits return at once (retries are checked, not timed).
struct NoWaitClock: RetryClock {
  func now() -> Double { Date().timeIntervalSince1970 }
  func sleep(seconds: Double) async throws { try Task.checkCancellation() }
}
