import APXCore
import APXRuntime
import Foundation
import Testing

@Suite("gRPC failures: status, exit code, hint, retries, auth", .timeLimit(.minutes(5)))
struct GRPCErrorTests {
  @Test func notFoundIsExit69WithTheServersMessage() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(try h.endpoint("lessons.get"), values: [("id", .string("les_4242"))])
      #expect(error?.status == .grpc(code: 5))
      #expect(error?.message.contains("NOT_FOUND") == true)
      #expect(error?.message.contains("les_4242") == true)
    }
  }

  @Test func invalidArgumentPointsAtDescribe() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(try h.endpoint("lessons.create"), values: [("title", .string(""))])
      #expect(error?.status == .grpc(code: 3))
      #expect(error?.hint?.contains("apx describe") == true)
    }
  }

  @Test func refusedConnectionIsUnavailableWithAHint() async throws {
    try await GRPCHarness.run { h in
      let error = try await withClosedLoopbackPort { port in
        await h.failure(
          try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))], maxAttempts: 1,
          baseURL: "grpc://127.0.0.1:\(port)")
      }
      #expect(error?.status == .grpc(code: 14))
      #expect(error?.message.contains("UNAVAILABLE") == true)
      #expect(error?.hint?.contains("is the server running") == true)
      #expect(error?.reason == .connectionRefused)
      // A closed port is not a TLS question.
      #expect(error?.hint?.contains("TLS") == false)
      #expect(error?.hint?.contains("grpcs://") == false)
    }
  }

  @Test func tlsAgainstAPlaintextServerIsUnavailable() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))], maxAttempts: 1,
        baseURL: "grpcs://127.0.0.1:\(h.server.port)")
      #expect(error?.status == .grpc(code: 14))
      #expect(error?.hint?.contains("plaintext") == true)
    }
  }

  @Test func deadlineExceededIsExit68() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(
        try h.endpoint("lessons.status"), values: [("lesson_id", .string("les_0001")), ("delay_ms", .string("5000"))],
        timeout: 0.2)
      #expect(error?.status == .grpc(code: 4))
      #expect(error?.hint?.contains("--timeout") == true)
    }
  }

  @Test func injectedUnavailableIsRetriedByTheRegistryPolicy() async throws {
    try await GRPCHarness.run { h in
      let key = "retry-\(UUID().uuidString)"
      let log = try await h.call(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: [HeaderField("x-demo-fail-times", "2"), HeaderField("x-demo-key", key)])
      #expect(log.messages.first?["id"] == .string("les_0001"))
      #expect(log.attempts == [1, 2, 3])
      #expect(log.retries.map(\.attempt) == [2, 3])
      #expect(log.retries.first?.reason.contains("UNAVAILABLE") == true)
    }
  }

  @Test func noRetryMakesOneAttemptWithoutTrappingInGRPCCore() async throws {
    try await GRPCHarness.run { h in
      let key = "noretry-\(UUID().uuidString)"
      let error = await h.failure(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: [HeaderField("x-demo-fail-times", "1"), HeaderField("x-demo-key", key)], maxAttempts: 1)
      #expect(error?.status == .grpc(code: 14))
    }
  }

  @Test func resourceExhaustedShowsTheQuotaJSON() async throws {
    try await GRPCHarness.run { h in
      let key = "quota-\(UUID().uuidString)"
      let error = await h.failure(
        try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))],
        headers: [
          HeaderField("x-demo-fail-times", "1"), HeaderField("x-demo-key", key),
          HeaderField("x-demo-fail-code", "RESOURCE_EXHAUSTED"),
        ])
      #expect(error?.status == .grpc(code: 8))
      #expect(error?.message.contains("RESOURCE_EXHAUSTED") == true)
      #expect(error?.cause?.contains("{") == true)
      #expect(error?.hint?.contains("quota") == true)
    }
  }

  @Test func unknownFieldListsTheValidOnes() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(try h.endpoint("lessons.get"), values: [("idd", .string("x"))])
      #expect(error?.status == .usage)
      #expect(error?.message.contains("has no field \"idd\"") == true)
      #expect(error?.hint?.contains("did you mean \"id\"") == true)
    }
  }

  @Test func missingRequiredParamIsAUsageError() async throws {
    try await GRPCHarness.run { h in
      let error = await h.failure(try h.endpoint("lessons.get"))
      #expect(error?.status == .usage)
      #expect(error?.message.contains("\"id\"") == true)
    }
  }

  @Test func bearerTokenGoesInAuthorizationMetadata() async throws {
    try await GRPCHarness.run(requireAuth: true, validateToken: { $0 == "good-token" }) { h in
      let endpoint = try h.endpoint("lessons.get") { $0.auth = .bearer(token: "${env:APX_TEST_GRPC_TOKEN}") }
      let log = try await h.call(
        endpoint, values: [("id", .string("les_0001"))], environment: ["APX_TEST_GRPC_TOKEN": "good-token"])
      #expect(log.messages.count == 1)
      // The token never shows in the reported metadata.
      let shown = log.all.compactMap { if case .requestSent(_, _, let headers, _) = $0 { headers } else { nil } }
      #expect(shown.flatMap { $0 }.contains { $0.name == "authorization" && !$0.value.contains("good-token") })
    }
  }

  @Test func missingCredentialsAreUnauthenticatedWithASignInHint() async throws {
    try await GRPCHarness.run(requireAuth: true, validateToken: { $0 == "good-token" }) { h in
      let error = await h.failure(try h.endpoint("lessons.get"), values: [("id", .string("les_0001"))])
      #expect(error?.status == .grpc(code: 16))
      #expect(error?.hint?.contains("apx auth login classnotes") == true)
    }
  }

  @Test func refusedTokenIsRefreshedOnceAndTheCallReplayed() async throws {
    try await GRPCHarness.run(requireAuth: true, validateToken: { $0 == "fresh" }) { h in
      let tokens = SequenceTokenSource(["stale", "fresh"])
      let endpoint = try h.endpoint("lessons.get") {
        $0.auth = .tokenCommand(command: ["print-token"], lifetime: 60)
      }
      let log = try await h.call(endpoint, values: [("id", .string("les_0001"))], tokens: tokens)
      #expect(log.messages.count == 1)
      #expect(tokens.requests == 2)
      #expect(log.notes.contains { $0.contains("UNAUTHENTICATED") })
    }
  }
}
