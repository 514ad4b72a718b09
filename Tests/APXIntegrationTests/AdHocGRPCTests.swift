import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call grpc://HOST:PORT/package.Service/Method`, `apx list grpc://...` and
/// `apx describe grpc://...` with no registry entry, against the demo gRPC server.
@Suite("apx call grpc:// (ad hoc)", .timeLimit(.minutes(5)))
struct AdHocGRPCTests {
  static let service = "classnotes.v1.ClassNotesAPI"
  static var protoset: String { APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path }

  /// The schema flags of each source: reflection (none) and a protoset.
  static let schemas: [[String]] = [[], ["--protoset", protoset]]

  static func url(_ server: DemoServer, _ method: String) -> String {
    "grpc://127.0.0.1:\(server.grpcPort)/\(service)/\(method)"
  }

  @Test(arguments: schemas)
  func unaryWithItemsAndWithData(_ schema: [String]) async throws {
    try await withDemoServer { server in
      let items = try await APXProcess.run(["call", Self.url(server, "GetLesson"), "id=les_0001"] + schema)
      #expect(items.status == 0, "\(items.stderr)")
      #expect(try JSONParser.parse(items.stdout)["id"] == .string("les_0001"))
      let data = try await APXProcess.run(
        ["call", Self.url(server, "GetLesson"), "-d", #"{"id": "les_0001"}"#] + schema)
      #expect(data.status == 0, "\(data.stderr)")
      #expect(try JSONParser.parse(data.stdout)["viewCount"] == .string("1280"))
    }
  }

  /// A URL has no registry API to sign in to: the hint names the flags that carry credentials.
  @Test func unauthenticatedSuggestsBearerOrAHeader() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let r = try await APXProcess.run(
        ["call", Self.url(server, "GetLesson"), "id=les_0001", "--protoset", Self.protoset])
      #expect(r.status == 80, "\(r.stderr)")
      #expect(r.stderr.contains("--bearer TOKEN") && r.stderr.contains("-H"), "\(r.stderr)")
      #expect(!r.stderr.contains("apx auth login"), "\(r.stderr)")
    }
  }

  @Test(arguments: schemas)
  func serverStreaming(_ schema: [String]) async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", Self.url(server, "StreamProcessingStatus"), "lesson_id=les_0001", "delay_ms:=1"] + schema)
      #expect(r.status == 0, "\(r.stderr)")
      let stages = try r.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["stage"] }
      #expect(stages == ["QUEUED", "OCR", "ANALYSIS", "COMPLETED"].map { .string($0) })
    }
  }

  @Test(arguments: schemas)
  func clientStreamingFromStdin(_ schema: [String]) async throws {
    try await withDemoServer { server in
      let input = "{\"filename\": \"n.txt\", \"data\": \"aGVsbG8g\"}\n{\"data\": \"d29ybGQ=\"}\n"
      let r = try await APXProcess.run(
        ["call", Self.url(server, "UploadDocumentChunks")] + schema, stdin: Data(input.utf8))
      #expect(r.status == 0, "\(r.stderr)")
      #expect(
        try JSONParser.parse(r.stdout)["sha256"]
          == .string("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"))
    }
  }

  @Test(arguments: schemas)
  func bidirectionalStreaming(_ schema: [String]) async throws {
    try await withDemoServer { server in
      let input = """
        {"document_id": "d9", "operation": "UPSERT", "content": "a"}
        {"document_id": "d9", "operation": "UPSERT", "content": "b", "base_version": 1}

        """
      let r = try await APXProcess.run(["call", Self.url(server, "SyncDocuments")] + schema, stdin: Data(input.utf8))
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(try JSONParser.parse(String(lines[1]))["version"] == .string("2"))
    }
  }

  // Skipped, saying so, without a compiler (apx's message for that case is tested in
  // APXRuntimeTests' protocMissingSaysHowToGetIt).
  @Test(.enabled(Comment(rawValue: ProtocAvailability.missing)) { await ProtocAvailability.found() })
  func protoFilesCompiledWithProtoc() async throws {
    let root = APXProcess.packageRoot.appendingPathComponent("Protos").path
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.url(server, "GetLesson"), "id=les_0001", "--proto", root + "/classnotes/v1/classnotes.proto",
        "--import-path", root,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
    }
  }

  @Test func statusAndMetadataAsForRegistryCalls() async throws {
    try await withDemoServer { server in
      let missing = try await APXProcess.run(["call", Self.url(server, "GetLesson"), "id=les_4242"])
      #expect(missing.status == 69 && missing.stderr.contains("NOT_FOUND"), "\(missing.stderr)")
      // The demo's fault injection reads metadata: -H and Name:value items both carry it.
      let failing = try await APXProcess.run([
        "call", Self.url(server, "GetLesson"), "id=les_0001", "-H", "x-demo-fail-times: 5", "x-demo-key:adhoc-md",
        "--no-retry",
      ])
      #expect(failing.status == 78 && failing.stderr.contains("UNAVAILABLE"), "\(failing.stderr)")
      let unknown = try await APXProcess.run(["call", Self.url(server, "GetLesson"), "idd=x"])
      #expect(unknown.status == 2 && unknown.stderr.contains("did you mean \"id\""), "\(unknown.stderr)")
      // A service the server does not know: the hint is the command that lists the ones it does.
      let base = "grpc://127.0.0.1:\(server.grpcPort)"
      let noService = try await APXProcess.run(["call", base + "/nope.v1.Missing/Get", "-d", "{}"])
      #expect(noService.status == 2, "\(noService.stderr)")
      #expect(noService.stderr.contains("does not know \"nope.v1.Missing\""), "\(noService.stderr)")
      #expect(noService.stderr.contains("`apx list \(base)` lists the services"), "\(noService.stderr)")
    }
  }

  @Test func listAndDescribeAGRPCURL() async throws {
    try await withDemoServer { server in
      let base = "grpc://127.0.0.1:\(server.grpcPort)"
      // --timeout 60: under the whole suite's load, reflection took over the 10 s default.
      let list = try await APXProcess.run(["list", base, "-o", "ndjson", "--timeout", "60"])
      #expect(list.status == 0, "\(list.stderr)")
      #expect(list.stdout.contains("\"method\":\"SyncDocuments\",\"shape\":\"bidi_streaming\""))

      let method = try await APXProcess.run(["describe", Self.url(server, "StreamProcessingStatus"), "-o", "json"])
      #expect(method.status == 0, "\(method.stderr)")
      let json = try JSONParser.parse(method.stdout)
      #expect(json["shape"] == .string("server_streaming"))
      #expect(json["request_template"]?["lessonId"] == .string(""))
      #expect(json["request_fields"]?.arrayValue?.contains(.string("string lesson_id = 1")) == true)
      #expect(
        json["example"]?.stringValue?.hasPrefix("apx call \(Self.url(server, "StreamProcessingStatus")) -d ") == true)

      let service = try await APXProcess.run(["describe", base + "/" + Self.service, "-o", "json"])
      #expect(service.status == 0, "\(service.stderr)")
      #expect(try JSONParser.parse(service.stdout)["methods"]?.arrayValue?.count ?? 0 >= 8)

      // `apx describe URL/package.Message`: a message type, over reflection or from a protoset.
      for flags in [
        [], ["--protoset", APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path],
      ] {
        let message = try await APXProcess.run(["describe", base + "/classnotes.v1.Lesson", "-o", "json"] + flags)
        #expect(message.status == 0, "\(flags): \(message.stderr)")
        let lesson = try JSONParser.parse(message.stdout)
        #expect(lesson["fields"]?.arrayValue?.contains(.string("repeated string labels = 4")) == true, "\(flags)")
      }
      let noType = try await APXProcess.run([
        "describe", base + "/classnotes.v1.Nope", "--protoset",
        APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path,
      ])
      #expect(noType.status == 2 && noType.stderr.contains("no service or message type"), "\(noType.stderr)")

      // `apx list URL/package.Service`: that service's methods, the same rows as in the whole list.
      let one = try await APXProcess.run(["list", base + "/" + Self.service, "-o", "ndjson", "--timeout", "60"])
      #expect(one.status == 0, "\(one.stderr)")
      let rows = one.stdout.split(separator: "\n").map(String.init)
      let ofService = list.stdout.split(separator: "\n").map(String.init).filter {
        $0.contains("\"service\":\"\(Self.service)\"")
      }
      #expect(!rows.isEmpty && rows == ofService, "\(one.stdout)")
      let unknown = try await APXProcess.run(["list", base + "/no.Such", "--timeout", "60"])
      #expect(unknown.status == 2 && unknown.stderr.contains("no service no.Such"), "\(unknown.stderr)")
      let aMethod = try await APXProcess.run(["list", Self.url(server, "GetLesson")])
      #expect(aMethod.status == 2 && aMethod.stderr.contains("names a method"), "\(aMethod.stderr)")
    }
  }

  @Test(arguments: [
    ("grpc://127.0.0.1:1/NoDots", "no method"), ("grpc://127.0.0.1:1/a.B/M/extra", "package.Service/Method"),
    ("grpc://127.0.0.1:1/a.B", "no method"),
  ])
  func malformedGRPCURLsAreUsageErrors(_ url: String, _ named: String) async throws {
    let r = try await APXProcess.run(["call", url, "-d", "{}"])
    #expect(r.status == 2, "\(url): \(r.stderr)")
    #expect(r.stderr.contains(named), "\(url): \(r.stderr)")
  }
}
