import APXDemoServer
import GRPCCore
import SwiftProtobuf
import Testing

@Suite("Demo gRPC server: auth and fault injection")
struct DemoGRPCAuthAndFaultTests {
  private static let validToken = "demo-token-123"

  @Test func requiredAuthRejectsMissingAndWrongTokens() async throws {
    try await DemoGRPCHarness.run(requireAuth: true, validateToken: { $0 == Self.validToken }) {
      client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let request = Classnotes_V1_GetLessonRequest.with { $0.id = "les_0001" }

      let missing = await DemoGRPCHarness.rpcError { _ = try await api.getLesson(request) }
      #expect(missing?.code == .unauthenticated)

      let wrong = await DemoGRPCHarness.rpcError {
        _ = try await api.getLesson(request, metadata: ["authorization": "Bearer nope"])
      }
      #expect(wrong?.code == .unauthenticated)

      let malformed = await DemoGRPCHarness.rpcError {
        _ = try await api.getLesson(request, metadata: ["authorization": .string(Self.validToken)])
      }
      #expect(malformed?.code == .unauthenticated)

      let lesson = try await api.getLesson(
        request,
        metadata: ["authorization": .string("Bearer \(Self.validToken)")]
      )
      #expect(lesson.id == "les_0001")
    }
  }

  @Test func authIsNotCheckedWhenNotRequired() async throws {
    try await DemoGRPCHarness.run(requireAuth: false) { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let lesson = try await api.getLesson(.with { $0.id = "les_0002" })
      #expect(lesson.id == "les_0002")
    }
  }

  @Test func failTimesAnswersUnavailableThenSucceeds() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let metadata: Metadata = ["x-demo-fail-times": "2", "x-demo-key": "retry-test"]
      let request = Classnotes_V1_GetLessonRequest.with { $0.id = "les_0001" }
      for _ in 1...2 {
        let error = await DemoGRPCHarness.rpcError {
          _ = try await api.getLesson(request, metadata: metadata)
        }
        #expect(error?.code == .unavailable)
      }
      let lesson = try await api.getLesson(request, metadata: metadata)
      #expect(lesson.id == "les_0001")

      // Another key has its own count.
      let other = await DemoGRPCHarness.rpcError {
        _ = try await api.getLesson(
          request,
          metadata: ["x-demo-fail-times": "1", "x-demo-key": "other-key"]
        )
      }
      #expect(other?.code == .unavailable)
    }
  }

  @Test func grpcRetryPolicyRecoversFromInjectedFaults() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      var options = CallOptions.defaults
      options.executionPolicy = .retry(
        RetryPolicy(
          maxAttempts: 4,
          initialBackoff: .milliseconds(1),
          maxBackoff: .milliseconds(5),
          backoffMultiplier: 2,
          retryableStatusCodes: [.unavailable]
        )
      )
      let lesson = try await api.getLesson(
        .with { $0.id = "les_0003" },
        metadata: ["x-demo-fail-times": "3", "x-demo-key": "policy-test"],
        options: options
      )
      #expect(lesson.id == "les_0003")
    }
  }

  @Test func resourceExhaustedCarriesAJSONMessage() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let error = await DemoGRPCHarness.rpcError {
        _ = try await api.listLessons(
          .init(),
          metadata: [
            "x-demo-fail-times": "1", "x-demo-key": "quota",
            "x-demo-fail-code": "RESOURCE_EXHAUSTED",
          ]
        )
      }
      #expect(error?.code == .resourceExhausted)
      #expect(error?.message.hasPrefix(#"{"error":"quota_exceeded""#) == true)
    }
  }

  @Test func badFailTimesIsInvalidArgument() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let api = Classnotes_V1_ClassNotesAPI.Client(wrapping: client)
      let error = await DemoGRPCHarness.rpcError {
        _ = try await api.listLessons(.init(), metadata: ["x-demo-fail-times": "many"])
      }
      #expect(error?.code == .invalidArgument)
    }
  }
}
