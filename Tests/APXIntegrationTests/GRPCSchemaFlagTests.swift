import APXCore
import APXTestSupport
import Foundation
import Testing

/// `--protoset`, `--proto` and `--import-path` on `apx call`, `apx describe` and `apx list` with
/// a gRPC URL: `list` and `describe` read the files without asking the server, and a file the
/// command line names that cannot be used is a usage error about the flag, not about a registry.
@Suite("gRPC schema flags: list, describe, errors", .timeLimit(.minutes(5)))
struct GRPCSchemaFlagTests {
  static let service = "classnotes.v1.ClassNotesAPI"
  static var protoset: String { APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path }
  /// Nothing listens on port 1: what is listed or described there came from the files.
  static let nowhere = "grpc://127.0.0.1:1"

  @Test func listAndDescribeReadAProtosetWithoutAServer() async throws {
    let list = try await APXProcess.run(["list", Self.nowhere, "--protoset", Self.protoset, "-o", "ndjson"])
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("\"method\":\"SyncDocuments\",\"shape\":\"bidi_streaming\""), "\(list.stdout)")

    let url = "\(Self.nowhere)/\(Self.service)/StreamProcessingStatus"
    let method = try await APXProcess.run(["describe", url, "--protoset", Self.protoset, "-o", "json"])
    #expect(method.status == 0, "\(method.stderr)")
    let json = try JSONParser.parse(method.stdout)
    #expect(json["shape"] == .string("server_streaming"))
    #expect(json["request_template"]?["lessonId"] == .string(""))
    // The example repeats the schema flag: without it, the call would ask for reflection.
    #expect(json["example"]?.stringValue?.hasPrefix("apx call \(url) --protoset \(Self.protoset) -d ") == true)

    let service = try await APXProcess.run([
      "describe", "\(Self.nowhere)/\(Self.service)", "--protoset", Self.protoset, "-o", "json",
    ])
    #expect(service.status == 0, "\(service.stderr)")
    #expect(try JSONParser.parse(service.stdout)["methods"]?.arrayValue?.count ?? 0 >= 8)

    let missing = try await APXProcess.run(["describe", "\(Self.nowhere)/nope.v1.Missing", "--protoset", Self.protoset])
    #expect(missing.status == 2, "\(missing.stderr)")
    #expect(
      missing.stderr.contains("the schema files name no service or message type nope.v1.Missing"), "\(missing.stderr)")
    #expect(missing.stderr.contains("apx list \(Self.nowhere) --protoset \(Self.protoset)"), "\(missing.stderr)")
  }

  @Test func schemaFilesGivenOnTheCommandLineThatCannotBeUsedAreUsageErrors() async throws {
    let url = "\(Self.nowhere)/\(Self.service)/GetLesson"
    let garbage = TestScratch.root.appendingPathComponent("garbage-\(UUID().uuidString).protoset").path
    try Data("not a descriptor set".utf8).write(to: URL(fileURLWithPath: garbage))
    let absent = TestScratch.root.appendingPathComponent("absent-\(UUID().uuidString)").path
    // 65 MiB and sparse: past the 64 MiB apx reads from one file, without writing 65 MiB.
    let huge = TestScratch.root.appendingPathComponent("huge-\(UUID().uuidString).protoset").path
    #expect(FileManager.default.createFile(atPath: huge, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: huge))
    try handle.truncate(atOffset: 65 * 1_048_576)
    try handle.close()
    for (arguments, says) in [
      (["call", url, "--protoset", absent + ".protoset", "-d", "{}"], "cannot read the protoset \(absent).protoset"),
      (["describe", url, "--protoset", absent + ".protoset"], "cannot read the protoset \(absent).protoset"),
      (["call", url, "--proto", absent + ".proto", "-d", "{}"], "cannot read the .proto file \(absent).proto"),
      (["call", url, "--protoset", garbage, "-d", "{}"], "not a valid serialized FileDescriptorSet (\(garbage))"),
      (["list", Self.nowhere, "--protoset", garbage], "not a valid serialized FileDescriptorSet (\(garbage))"),
      (["list", Self.nowhere, "--protoset", TestScratch.root.path], "it is a folder, not a file"),
      (["describe", url, "--protoset", huge], "larger than 64 MiB"),
    ] {
      let r = try await APXProcess.run(arguments)
      #expect(r.status == 2, "\(arguments): \(r.stderr)")
      // Said about the command line: no registry file named (it was "apx: : error" before).
      #expect(r.stderr.hasPrefix("apx: error: "), "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(says), "\(arguments): \(r.stderr)")
      #expect(!r.stderr.contains("relative to the folder of"), "\(arguments): \(r.stderr)")
    }
  }

  @Test func schemaFlagsGoWithAGRPCURLOnly() async throws {
    for (arguments, says) in [
      (["describe", "books.get", "--protoset", Self.protoset], "books.get is a registry endpoint"),
      (["list", "books", "--protoset", Self.protoset], "books is a registry API"),
      (["call", "http://127.0.0.1:1/x", "--protoset", Self.protoset], "http://127.0.0.1:1/x is http"),
      (["describe", "\(Self.nowhere)/\(Self.service)", "--import-path", "/tmp"], "--import-path goes with --proto"),
      (["list", Self.nowhere, "--protoset", Self.protoset, "--proto", "a.proto"], "each give the schema: use one"),
    ] {
      let r = try await APXProcess.run(arguments)
      #expect(r.status == 2, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(says), "\(arguments): \(r.stderr)")
    }
  }

  @Test func aRegistrySchemaFileThatCannotBeReadIsAnInvalidRegistry() async throws {
    let folder = TestScratch.root.appendingPathComponent("schema-registry-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let file = folder + "/broken.json"
    let registry = """
      {"api": "broken", "environments": {"local": {"base_url": "grpc://127.0.0.1:1"}},
       "endpoints": {"get": {"kind": "grpc", "service": "\(Self.service)", "method": "GetLesson",
                             "schema": {"protoset": "missing.protoset"}}}}
      """
    try Data(registry.utf8).write(to: URL(fileURLWithPath: file))
    let r = try await APXProcess.run(["call", "broken.get", "--registry", folder, "-d", "{}"])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("cannot read the protoset \(folder)/missing.protoset"), "\(r.stderr)")
    #expect(r.stderr.contains("relative to the folder of \(file)"), "\(r.stderr)")
  }
}
