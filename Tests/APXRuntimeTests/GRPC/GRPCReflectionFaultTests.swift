import APXCore
import APXDemoServer
import APXGRPCReflection
import APXRuntime
import Foundation
import Testing

/// A server whose reflection answer apx cannot use (descriptors that are not protobuf, or that
/// use types from files the answer leaves out): a remote failure (exit 10) that says what was
/// wrong in words, not as a SwiftProtobuf enum case, and points to --protoset / --proto.
///
/// The broken answers come from the demo server's test option `reflectionFault`, so the real
/// reflection client and call path meet them.
@Suite("gRPC reflection answers apx cannot use", .timeLimit(.minutes(5)))
struct GRPCReflectionFaultTests {
  static func withServer<T: Sendable>(
    _ fault: DemoReflectionFault, _ body: (GRPCHarness) async throws -> T
  ) async throws -> T {
    try await GRPCHarness.run(reflectionFault: fault, body)
  }

  static func viaReflection(_ h: GRPCHarness) throws -> APXCore.Endpoint {
    try h.endpoint("lessons.get") { $0.setGRPC(\.schema, .reflection) }
  }

  /// The parts every such error shares.
  static func expectUnusableAnswer(_ error: APXError?, _ h: GRPCHarness) {
    #expect(error?.status == .remoteFailure)
    #expect(error?.message.contains("sent over reflection for classnotes.v1.ClassNotesAPI cannot be used") == true)
    #expect(error?.message.contains(h.baseURL) == true)
    let hint = error?.hint ?? ""
    #expect(hint.contains("--protoset") && hint.contains("--proto") && hint.contains("server's owner"))
  }

  @Test func descriptorsThatAreNotProtobufSayWhyInWords() async throws {
    try await Self.withServer(.undecodableFiles) { h in
      let error = await h.failure(try Self.viaReflection(h), values: [("id", .string("les_0001"))])
      Self.expectUnusableAnswer(error, h)
      let cause = error?.cause ?? ""
      #expect(cause.contains("is not a valid serialized FileDescriptorProto"))
      #expect(cause.contains("the bytes are not protobuf"))
      #expect(!cause.contains("malformedProtobuf"))
    }
  }

  @Test func descriptorsThatDoNotLinkNameTheMissingType() async throws {
    try await Self.withServer(.unlinkedFiles) { h in
      let error = await h.failure(try Self.viaReflection(h), values: [("id", .string("les_0001"))])
      Self.expectUnusableAnswer(error, h)
      #expect(error?.cause?.contains("which is not defined in the loaded files") == true)
    }
  }

  @Test func listingTheServicesSaysTheSame() async throws {
    try await Self.withServer(.undecodableFiles) { h in
      do {
        // A generous deadline: the answer comes at once, and a loaded machine must not turn it into a timeout.
        _ = try await GRPCInspector.listServices(at: h.baseURL, timeout: 60)
        Issue.record("listed the services of a broken reflection answer")
      } catch let error as APXError {
        Self.expectUnusableAnswer(error, h)
        #expect(error.cause?.contains("the bytes are not protobuf") == true)
      }
    }
  }
}
