import APXCore
import APXDemoServer
import Foundation
import Testing

/// The real `apx` binary against the demo gRPC server on a free loopback port.
@Suite("apx call (gRPC), list --grpc, describe", .timeLimit(.minutes(5)))
struct GRPCCallTests {
  static func base(_ server: DemoServer) -> String { "grpc://127.0.0.1:\(server.grpcPort)" }

  @Test func unaryPrintsTheResponseJSON() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "classnotes.lessons.get", "id=les_0001", "--base-url", Self.base(server),
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let json = try JSONParser.parse(r.stdout)
      #expect(json["id"] == .string("les_0001"))
      #expect(json["viewCount"] == .string("1280"))
    }
  }

  @Test func unaryWithTheInProcessDemoAndReflection() async throws {
    let r = try await APXProcess.run(["call", "--demo", "classnotes.lessons.create", "title=Hello"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try JSONParser.parse(r.stdout)["title"] == .string("Hello"))
  }

  @Test func serverStreamingPrintsOneLinePerMessage() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "classnotes.lessons.status", "lesson_id=les_0001", "delay_ms=1", "--base-url", Self.base(server),
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 4)
      #expect(
        try lines.map { try JSONParser.parse($0)["stage"] }
          == ["QUEUED", "OCR", "ANALYSIS", "COMPLETED"].map { .string($0) })
    }
  }

  @Test func clientStreamingReadsNDJSONFromStdin() async throws {
    try await withDemoServer { server in
      let input = "{\"filename\": \"n.txt\", \"data\": \"aGVsbG8g\"}\n{\"data\": \"d29ybGQ=\"}\n"
      let r = try await APXProcess.run(
        ["call", "classnotes.documents.upload", "--base-url", Self.base(server)], stdin: Data(input.utf8))
      #expect(r.status == 0, "\(r.stderr)")
      let json = try JSONParser.parse(r.stdout)
      #expect(json["sha256"] == .string("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"))
    }
  }

  @Test func bidirectionalStreamingAcknowledgesEachLine() async throws {
    try await withDemoServer { server in
      let input = """
        {"document_id": "d9", "operation": "UPSERT", "content": "a"}
        {"document_id": "d9", "operation": "UPSERT", "content": "b", "base_version": 1}

        """
      let r = try await APXProcess.run(
        ["call", "classnotes.documents.sync", "--base-url", Self.base(server)], stdin: Data(input.utf8))
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n")
      #expect(lines.count == 2)
      #expect(try JSONParser.parse(String(lines[1]))["version"] == .string("2"))
    }
  }

  @Test func notFoundExitsWith69AndNamesTheStatus() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "classnotes.lessons.get", "id=les_4242", "--base-url", Self.base(server),
      ])
      #expect(r.status == 69)
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("NOT_FOUND"))
    }
  }

  /// The demo's flaky method fails like a grpcio server (initial metadata, then UNAVAILABLE):
  /// apx retries it, and --retry 10 means ten attempts.
  @Test func flakyMethodIsRetriedAfterInitialMetadata() async throws {
    let r = try await APXProcess.run(
      ["call", "--demo", "classnotes.flaky", "id=les_0001", "--retry", "10"],
      environment: ["CLASSNOTES_FLAKY_TIMES": "6"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try JSONParser.parse(r.stdout)["id"] == .string("les_0001"))
    #expect(r.stderr.components(separatedBy: "retrying in").count - 1 == 6, "\(r.stderr)")
    #expect(r.stderr.contains("(attempt 7)"), "\(r.stderr)")
  }

  @Test func unreachableServerExitsWith78AndAHint() async throws {
    let r = try await APXProcess.run([
      "call", "classnotes.lessons.get", "id=les_0001", "--base-url", "grpc://127.0.0.1:1", "--no-retry",
    ])
    #expect(r.status == 78)
    #expect(r.stderr.contains("UNAVAILABLE"))
    #expect(r.stderr.contains("is the server running"))
  }

  @Test func unknownFieldIsAUsageError() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "classnotes.lessons.get", "idd=x", "--base-url", Self.base(server),
      ])
      #expect(r.status == 2)
      #expect(r.stderr.contains("did you mean \"id\""))
    }
  }

  @Test func listGRPCListsServicesOverReflection() async throws {
    try await withDemoServer { server in
      // --timeout 60: under the whole suite's load, reflection took over the 10 s default.
      let r = try await APXProcess.run(
        ["list", "--grpc", "127.0.0.1:\(server.grpcPort)", "-o", "ndjson", "--timeout", "60"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"method\":\"SyncDocuments\",\"shape\":\"bidi_streaming\""))
    }
  }

  @Test func describeShowsShapeAndRequestTemplate() async throws {
    let r = try await APXProcess.run(["describe", "classnotes.lessons.status", "-o", "json"])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try JSONParser.parse(r.stdout)
    #expect(json["shape"] == .string("server_streaming"))
    #expect(json["request_template"]?["lessonId"] == .string(""))
  }
}
