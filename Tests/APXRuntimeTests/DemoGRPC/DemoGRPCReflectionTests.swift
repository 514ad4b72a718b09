import APXDemoServer
import APXGRPCReflection
import Foundation
import GRPCCore
import SwiftProtobuf
import Testing

@Suite("Demo gRPC server: server reflection", .timeLimit(.minutes(5)))
struct DemoGRPCReflectionTests {
  private static let expectedServices = [
    "classnotes.v1.ClassNotesAPI",
    "grpc.reflection.v1.ServerReflection",
    "grpc.reflection.v1alpha.ServerReflection",
  ]

  /// Asks the v1 service each question in turn, on one stream.
  private static func askV1(
    _ client: GRPCClient<DemoGRPCHarness.Transport>,
    _ questions: [Grpc_Reflection_V1_ServerReflectionRequest],
    metadata: Metadata = [:]
  ) async throws -> [Grpc_Reflection_V1_ServerReflectionResponse] {
    let reflection = Grpc_Reflection_V1_ServerReflection.Client(wrapping: client)
    return try await reflection.serverReflectionInfo(metadata: metadata) { writer in
      try await writer.write(contentsOf: questions)
    } onResponse: { response in
      var answers: [Grpc_Reflection_V1_ServerReflectionResponse] = []
      for try await answer in response.messages { answers.append(answer) }
      return answers
    }
  }

  /// Asks the v1alpha service each question in turn, on one stream.
  private static func askV1Alpha(
    _ client: GRPCClient<DemoGRPCHarness.Transport>,
    _ questions: [Grpc_Reflection_V1alpha_ServerReflectionRequest]
  ) async throws -> [Grpc_Reflection_V1alpha_ServerReflectionResponse] {
    let reflection = Grpc_Reflection_V1alpha_ServerReflection.Client(wrapping: client)
    return try await reflection.serverReflectionInfo { writer in
      try await writer.write(contentsOf: questions)
    } onResponse: { response in
      var answers: [Grpc_Reflection_V1alpha_ServerReflectionResponse] = []
      for try await answer in response.messages { answers.append(answer) }
      return answers
    }
  }

  private static func fileNames(_ serialized: [Data]) throws -> [String] {
    try serialized.map { try Google_Protobuf_FileDescriptorProto(serializedBytes: $0).name }
  }

  @Test func v1ListsServicesAndServesFilesWithDependencies() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let answers = try await Self.askV1(
        client,
        [
          .with { $0.listServices = "" },
          .with { $0.fileContainingSymbol = "classnotes.v1.ClassNotesAPI" },
          .with { $0.fileContainingSymbol = "classnotes.v1.ProcessingStatus.Stage" },
          .with { $0.fileByFilename = "google/protobuf/timestamp.proto" },
          .with { $0.fileContainingSymbol = "classnotes.v1.NoSuchThing" },
        ]
      )
      try #require(answers.count == 5)
      #expect(answers[0].listServicesResponse.service.map(\.name) == Self.expectedServices)

      let serviceFiles = try Self.fileNames(answers[1].fileDescriptorResponse.fileDescriptorProto)
      #expect(serviceFiles.first == "classnotes/v1/classnotes.proto")
      #expect(
        Set(serviceFiles) == [
          "classnotes/v1/classnotes.proto", "google/protobuf/field_mask.proto",
          "google/protobuf/timestamp.proto",
        ]
      )
      let classnotes = try Google_Protobuf_FileDescriptorProto(
        serializedBytes: answers[1].fileDescriptorResponse.fileDescriptorProto[0]
      )
      #expect(classnotes.service.first?.method.count == 9)

      let nested = try Self.fileNames(answers[2].fileDescriptorResponse.fileDescriptorProto)
      #expect(nested.first == "classnotes/v1/classnotes.proto")

      let timestamp = try Self.fileNames(answers[3].fileDescriptorResponse.fileDescriptorProto)
      #expect(timestamp == ["google/protobuf/timestamp.proto"])

      #expect(answers[4].errorResponse.errorCode == Int32(RPCError.Code.notFound.rawValue))
      #expect(answers[4].originalRequest.fileContainingSymbol == "classnotes.v1.NoSuchThing")
    }
  }

  @Test func v1AlphaAnswersTheSameQuestions() async throws {
    try await DemoGRPCHarness.run { client, _ in
      let answers = try await Self.askV1Alpha(
        client,
        [
          .with { $0.listServices = "*" },
          .with { $0.fileContainingSymbol = "classnotes.v1.ClassNotesAPI.CreateLesson" },
          .with {
            $0.fileContainingExtension = .with {
              $0.containingType = "classnotes.v1.Lesson"
              $0.extensionNumber = 100
            }
          },
        ]
      )
      try #require(answers.count == 3)
      #expect(answers[0].listServicesResponse.service.map(\.name) == Self.expectedServices)
      let files = try Self.fileNames(answers[1].fileDescriptorResponse.fileDescriptorProto)
      #expect(files.first == "classnotes/v1/classnotes.proto")
      #expect(files.count == 3)
      #expect(answers[2].errorResponse.errorCode == Int32(RPCError.Code.notFound.rawValue))
    }
  }

  @Test func reflectionStaysOpenWhenAuthIsRequired() async throws {
    try await DemoGRPCHarness.run(requireAuth: true, validateToken: { _ in false }) { client, _ in
      let answers = try await Self.askV1(client, [.with { $0.listServices = "" }])
      #expect(answers.first?.listServicesResponse.service.count == 3)
    }
  }
}
