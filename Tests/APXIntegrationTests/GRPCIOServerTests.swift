import APXCore
import Foundation
import Testing

/// `apx call`, `apx list` and `apx describe` on grpc:// URLs against Python's grpcio with
/// grpcio-reflection (`GRPCIOServer`): gRPC and server reflection as implemented by others than
/// grpc-swift, which both apx and its demo server use. Skipped, saying why, without them.
@Suite(
  "apx against a Python grpcio server", .timeLimit(.minutes(5)),
  .enabled(Comment(rawValue: GRPCIOServer.missing)) { await GRPCIOServer.found() })
struct GRPCIOServerTests {
  static let service = "classnotes.v1.ClassNotesAPI"

  /// Where apx gets the schema: grpcio-reflection (v1alpha only: apx falls back from v1), or
  /// `--protoset` from a server that offers no reflection.
  static let schemas: [(GRPCIOServer.Reflection, [String])] = [
    (.v1alpha, []), (.none, ["--protoset", GRPCIOServer.protoset]),
  ]

  static func call(_ base: String, _ method: String, _ arguments: [String], stdin: String? = nil) async throws
    -> APXResult
  {
    try await APXProcess.run(["call", "\(base)/\(service)/\(method)"] + arguments, stdin: stdin.map { Data($0.utf8) })
  }

  /// The keys and values of each NDJSON line of `stdout`.
  static func lines(_ stdout: String) throws -> [JSONValue] {
    try stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
  }

  @Test(arguments: schemas)
  func unaryAnswerIsTheServers(_ reflection: GRPCIOServer.Reflection, _ schema: [String]) async throws {
    try await GRPCIOServer.run(reflection: reflection) { base in
      let r = try await Self.call(base, "GetLesson", ["-d", #"{"id": "les_42"}"#] + schema)
      #expect(r.status == 0, "\(r.stderr)")
      let lesson = try JSONParser.parse(r.stdout)
      #expect(lesson == .object([JSONMember("id", .string("les_42")), JSONMember("title", .string("Lesson les_42"))]))
    }
  }

  @Test(arguments: schemas)
  func serverStreamPrintsOneLinePerMessage(_ reflection: GRPCIOServer.Reflection, _ schema: [String]) async throws {
    try await GRPCIOServer.run(reflection: reflection) { base in
      let r = try await Self.call(base, "StreamProcessingStatus", ["lesson_id=les_9", "count:=4"] + schema)
      #expect(r.status == 0, "\(r.stderr)")
      let messages = try Self.lines(r.stdout)
      #expect(messages.map { $0["sequence"] } == ["1", "2", "3", "4"].map { .string($0) })
      #expect(messages.map { $0["stage"] } == ["OCR", "OCR", "OCR", "COMPLETED"].map { .string($0) })
      #expect(messages.allSatisfy { $0["lessonId"] == .string("les_9") })
    }
  }

  @Test(arguments: schemas)
  func clientStreamFromStdinAndFromAFile(_ reflection: GRPCIOServer.Reflection, _ schema: [String]) async throws {
    let chunks = """
      {"filename": "n.txt", "data": "aGVsbG8g"}
      {"data": "d29y"}
      {"data": "bGQ="}

      """
    let file = try temporaryFile("chunks.ndjson", chunks)
    try await GRPCIOServer.run(reflection: reflection) { base in
      for (arguments, stdin) in [([String](), Optional(chunks)), (["-d", "@" + file], nil)] {
        let r = try await Self.call(base, "UploadDocumentChunks", arguments + schema, stdin: stdin)
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        let summary = try JSONParser.parse(r.stdout)
        #expect(summary["filename"] == .string("n.txt"))
        #expect(summary["chunkCount"] == .number("3"))
        #expect(summary["totalSize"] == .string("11"))
        // SHA-256 of "hello world": the chunks arrived whole and in order.
        #expect(summary["sha256"] == .string("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"))
      }
    }
  }

  @Test(arguments: schemas)
  func bidiStreamAcksEachChange(_ reflection: GRPCIOServer.Reflection, _ schema: [String]) async throws {
    let changes = """
      {"document_id": "d1", "operation": "UPSERT", "content": "a"}
      {"document_id": "d2", "operation": "DELETE", "base_version": 4}

      """
    try await GRPCIOServer.run(reflection: reflection) { base in
      let r = try await Self.call(base, "SyncDocuments", schema, stdin: changes)
      #expect(r.status == 0, "\(r.stderr)")
      let acks = try Self.lines(r.stdout)
      #expect(acks.map { $0["documentId"] } == [.string("d1"), .string("d2")])
      #expect(acks.map { $0["version"] } == [.string("1"), .string("5")])
      #expect(acks.map { $0["accepted"] } == [.bool(true), nil])
      #expect(acks.last?["reason"] == .string("deletes are refused"))
    }
  }

  @Test func listAndDescribeFromGRPCIOReflection() async throws {
    try await GRPCIOServer.run { base in
      let list = try await APXProcess.run(["list", base, "-o", "ndjson", "--timeout", "60"])
      #expect(list.status == 0, "\(list.stderr)")
      let methods = try Self.lines(list.stdout).filter { $0["service"] == .string(Self.service) }
      #expect(methods.count == 9, "\(list.stdout)")
      #expect(methods.contains { $0["method"] == .string("SyncDocuments") && $0["shape"] == .string("bidi_streaming") })

      let describe = try await APXProcess.run([
        "describe", "\(base)/\(Self.service)/StreamProcessingStatus", "-o", "json",
      ])
      #expect(describe.status == 0, "\(describe.stderr)")
      let method = try JSONParser.parse(describe.stdout)
      #expect(method["shape"] == .string("server_streaming"))
      #expect(method["request_fields"]?.arrayValue?.contains(.string("string lesson_id = 1")) == true)
      #expect(method["request_template"]?["lessonId"] == .string(""))

      // A message type, from the file grpcio-reflection says declares it.
      let message = try await APXProcess.run(["describe", "\(base)/classnotes.v1.Lesson", "-o", "json"])
      #expect(message.status == 0, "\(message.stderr)")
      let lesson = try JSONParser.parse(message.stdout)
      #expect(lesson["message"] == .string("classnotes.v1.Lesson"), "\(message.stdout)")
      #expect(lesson["fields"]?.arrayValue?.contains(.string("string id = 1")) == true, "\(message.stdout)")
      #expect(lesson["template"]?["title"] == .string(""), "\(message.stdout)")
      let unknown = try await APXProcess.run(["describe", "\(base)/classnotes.v1.NoSuchType"])
      #expect(unknown.status == 2, "\(unknown.stderr)")
    }
  }

  /// grpcio-reflection's servicer offered as `grpc.reflection.v1` only: apx's first choice.
  @Test func reflectionV1Only() async throws {
    try await GRPCIOServer.run(reflection: .v1) { base in
      let r = try await Self.call(base, "GetLesson", ["id=les_1"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["title"] == .string("Lesson les_1"))
      let list = try await APXProcess.run(["list", base, "-o", "ndjson", "--timeout", "60"])
      #expect(list.status == 0, "\(list.stderr)")
      #expect(list.stdout.contains(#""method":"UploadDocumentChunks","shape":"client_streaming""#), "\(list.stdout)")
    }
  }

  @Test func statusFromThePythonHandler() async throws {
    try await GRPCIOServer.run { base in
      // NOT_FOUND (5) from context.abort: exit 64 + 5, with the handler's message.
      let missing = try await Self.call(base, "GetLesson", ["id=missing_7"])
      #expect(missing.status == 69, "\(missing.stderr)")
      #expect(
        missing.stderr.contains("NOT_FOUND") && missing.stderr.contains("no lesson missing_7"), "\(missing.stderr)")
      // A stream the handler ends with NOT_FOUND after two messages: both printed, then the status.
      let broken = try await Self.call(base, "StreamProcessingStatus", ["lesson_id=missing_3", "count:=5"])
      #expect(broken.status == 69 && broken.stderr.contains("no lesson missing_3"), "\(broken.stderr)")
      #expect(try Self.lines(broken.stdout).map { $0["sequence"] } == [.string("1"), .string("2")])
      // In the schema but not served: grpcio's own UNIMPLEMENTED (12), not mistaken for reflection's.
      let unserved = try await Self.call(base, "DeleteLesson", ["id=les_1"])
      #expect(unserved.status == 76 && unserved.stderr.contains("UNIMPLEMENTED"), "\(unserved.stderr)")
      // A service grpcio-reflection does not know (its NOT_FOUND error response).
      let unknown = try await APXProcess.run(["call", base + "/nope.v1.Missing/Get", "-d", "{}"])
      #expect(unknown.status == 2, "\(unknown.stderr)")
      #expect(unknown.stderr.contains("does not know \"nope.v1.Missing\""), "\(unknown.stderr)")
    }
  }

  /// A server may end a client stream before reading all of it: with its status (here
  /// INVALID_ARGUMENT at the second chunk), or with its answer. The rest of the stream (16 MB:
  /// more than the transport buffers, so a write is still waiting when the call ends) must
  /// hide neither. apx said "I/O on closed channel" (exit 1) here before.
  @Test func clientStreamEndedEarlyByTheServer() async throws {
    let chunk = "{\"data\": \"\(String(repeating: "aGVsbG8g", count: 1000))\"}\n"
    let rest = String(repeating: chunk, count: 2000)
    let refused = "{\"filename\": \"n.txt\", \"data\": \"aGk=\"}\n{\"filename\": \"empty\"}\n" + rest
    let file = try temporaryFile("refused.ndjson", refused)
    try await GRPCIOServer.run { base in
      for (arguments, stdin) in [([String](), Optional(refused)), (["-d", "@" + file], nil)] {
        let r = try await Self.call(base, "UploadDocumentChunks", arguments, stdin: stdin)
        #expect(r.status == 67, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("failed with INVALID_ARGUMENT: chunk 2 is empty"), "\(arguments): \(r.stderr)")
        // The hint names the method as `apx describe` takes it: by its URL.
        let describe = "`apx describe \(base)/\(Self.service)/UploadDocumentChunks`"
        #expect(r.stderr.contains(describe), "\(arguments): \(r.stderr)")
      }
      let answered = try await Self.call(
        base, "UploadDocumentChunks", [],
        stdin: "{\"data\": \"aGk=\"}\n{\"filename\": \"stop-here\", \"data\": \"aGk=\"}\n" + rest)
      #expect(answered.status == 0, "\(answered.stderr)")
      #expect(try JSONParser.parse(answered.stdout)["chunkCount"] == .number("2"))
    }
  }

  @Test func noReflectionIsAUsageErrorSayingSo() async throws {
    try await GRPCIOServer.run(reflection: .none) { base in
      for arguments in [["call", "\(base)/\(Self.service)/GetLesson", "id=les_1"], ["list", base]] {
        let r = try await APXProcess.run(arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("does not offer gRPC server reflection"), "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("`apx list` take --protoset FILE.protoset"), "\(arguments): \(r.stderr)")
      }
      // As the hint says: with the schema file, describe answers and the call goes through.
      let protoset = APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path
      let described = try await APXProcess.run([
        "describe", "\(base)/\(Self.service)/GetLesson", "--protoset", protoset, "--select", ".example",
      ])
      #expect(described.status == 0, "\(described.stderr)")
      #expect(described.stdout.contains("--protoset \(protoset)"), "\(described.stdout)")
      let called = try await APXProcess.run([
        "call", "\(base)/\(Self.service)/GetLesson", "id=les_1", "--protoset", protoset,
      ])
      #expect(called.status == 0, "\(called.stderr)")
      #expect(try JSONParser.parse(called.stdout)["title"] == .string("Lesson les_1"))
    }
  }
}
