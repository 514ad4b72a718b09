import APXCore
import APXDemoServer
import APXGRPCReflection
import APXRuntime
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import SwiftProtobuf
import Testing

/// Reflection answers whose FileDescriptorProtos carry no `json_name` (protoc always sets it,
/// but reflection servers built from other tools may not): apx must still print and accept
/// lowerCamelCase JSON names.
///
/// The descriptors come from the demo server's test option `reflectionOmitsJSONNames`, which
/// strips `json_name` from the very files it serves, rather than from a reflection service
/// written here: the real server, its real reflection code and the real call path are then
/// what is tested, with one difference only, and the first test checks that difference.
@Suite("gRPC reflection without json_name", .timeLimit(.minutes(5)))
struct GRPCReflectionWithoutJSONNamesTests {
  /// Starts the demo gRPC server (descriptors stripped or not), runs `body`, stops it.
  static func withServer<T: Sendable>(
    omitJSONNames: Bool = true, _ body: (GRPCHarness) async throws -> T
  ) async throws -> T {
    try await GRPCHarness.run(reflectionOmitsJSONNames: omitJSONNames, body)
  }

  /// The files the server's v1 reflection serves for the ClassNotes service (with its imports).
  static func servedFiles(_ server: DemoGRPCServer) async throws -> [Google_Protobuf_FileDescriptorProto] {
    let transport = try HTTP2ClientTransport.Posix(
      target: .ipv4(address: "127.0.0.1", port: server.port), transportSecurity: .plaintext)
    return try await withGRPCClient(transport: transport) { client in
      let reflection = Grpc_Reflection_V1_ServerReflection.Client(wrapping: client)
      return try await reflection.serverReflectionInfo { writer in
        try await writer.write(.with { $0.fileContainingSymbol = "classnotes.v1.ClassNotesAPI" })
      } onResponse: { response in
        var files: [Google_Protobuf_FileDescriptorProto] = []
        for try await answer in response.messages {
          for bytes in answer.fileDescriptorResponse.fileDescriptorProto {
            files.append(try Google_Protobuf_FileDescriptorProto(serializedBytes: bytes))
          }
        }
        return files
      }
    }
  }

  /// Every field of every message in `files`, nested messages included.
  static func fields(_ files: [Google_Protobuf_FileDescriptorProto]) -> [Google_Protobuf_FieldDescriptorProto] {
    func walk(_ message: Google_Protobuf_DescriptorProto) -> [Google_Protobuf_FieldDescriptorProto] {
      message.field + message.nestedType.flatMap(walk)
    }
    return files.flatMap { $0.messageType.flatMap(walk) }
  }

  /// An endpoint of the classnotes registry switched to reflection.
  static func viaReflection(_ h: GRPCHarness, _ name: String) throws -> APXCore.Endpoint {
    try h.endpoint(name) { $0.setGRPC(\.schema, .reflection) }
  }

  @Test func theServerReallyOmitsJSONNamesAndOnlyWhenAsked() async throws {
    let stripped = try await Self.withServer { h in Self.fields(try await Self.servedFiles(h.server)) }
    #expect(stripped.contains { $0.name == "view_count" })
    #expect(stripped.allSatisfy { !$0.hasJsonName })

    let asCompiled = try await Self.withServer(omitJSONNames: false) { h in
      Self.fields(try await Self.servedFiles(h.server))
    }
    #expect(asCompiled.first { $0.name == "view_count" }?.jsonName == "viewCount")
  }

  @Test func responsesUseLowerCamelCaseNames() async throws {
    try await Self.withServer { h in
      let log = try await h.call(try Self.viaReflection(h, "lessons.get"), values: [("id", .string("les_0001"))])
      let lesson = try #require(log.messages.first)
      #expect(lesson["viewCount"] == .string("1280"))
      #expect(lesson["createdAt"] != nil)
      #expect(lesson["view_count"] == nil)
      #expect(lesson["created_at"] == nil)
    }
  }

  @Test func requestsAcceptLowerCamelCaseAndOriginalNames() async throws {
    try await Self.withServer { h in
      let list = try Self.viaReflection(h, "lessons.list")
      let camel = try await h.call(list, data: #"{"pageSize": 1}"#)
      let page = try #require(camel.messages.first)
      #expect(page["lessons"]?.arrayValue?.count == 1)
      #expect(page["nextPageToken"] != nil)
      #expect(page["next_page_token"] == nil)

      let original = try await h.call(list, data: #"{"page_size": 1}"#)
      #expect(original.messages.first?["lessons"]?.arrayValue?.count == 1)

      let created = try await h.call(
        try Self.viaReflection(h, "lessons.create"),
        data: #"{"lesson": {"title": "Optics", "durationMinutes": 45, "meetingUrl": "https://meet.example/o"}}"#)
      let lesson = try #require(created.messages.first)
      #expect(lesson["durationMinutes"] == .number("45"))
      #expect(lesson["meetingUrl"] == .string("https://meet.example/o"))
    }
  }

  @Test func unknownFieldErrorsSuggestTheLowerCamelCaseName() async throws {
    try await Self.withServer { h in
      let error = await h.failure(try Self.viaReflection(h, "lessons.list"), data: #"{"pageSiz": 1}"#)
      #expect(error?.status == .usage)
      #expect("\(error?.message ?? "") \(error?.hint ?? "")".contains("pageSize"))
    }
  }
}
