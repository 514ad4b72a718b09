import APXCore
import APXTestSupport
import Foundation
import Testing

/// gRPC request messages read from stdin as they arrive (client and bidirectional streams).
@Suite("gRPC request messages from stdin", .timeLimit(.minutes(5)))
struct GRPCRequestStdinTests {
  /// A pretty-printed document (`jq . messages.json | apx call ...`) is parsed once, when its
  /// brackets close: the whole pending text was parsed again after every line, so these 20,000
  /// lines (175 KB) took minutes; this run is bounded by the process's 60 s limit.
  @Test func aPrettyPrintedArrayOfMessagesIsReadInOnePass() async throws {
    try await withDemoServer { server in
      let chunks = Array(repeating: "  {\n    \"filename\": \"n.txt\",\n    \"data\": \"aGk=\"\n  }", count: 5000)
      let input = "[\n" + chunks.joined(separator: ",\n") + "\n]\n"
      let r = try await APXProcess.run(
        ["call", "grpc://127.0.0.1:\(server.grpcPort)/classnotes.v1.ClassNotesAPI/UploadDocumentChunks"],
        stdin: Data(input.utf8), timeout: 60)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try JSONParser.parse(r.stdout)["chunkCount"] == .number("5000"), "\(r.stdout)")
    }
  }
}
