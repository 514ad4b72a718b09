import Foundation
import Testing

/// A request message larger than `--max-message-size` (default 4 MiB) is refused before it is
/// sent: grpc-swift sent it anyway, and the server's reset read as UNAVAILABLE (exit 78),
/// retried three times with "try again later".
@Suite("gRPC request size", .timeLimit(.minutes(5)))
struct GRPCRequestSizeTests {
  static let service = "classnotes.v1.ClassNotesAPI"

  @Test func aUnaryRequestPastTheLimitIsAUsageError() async throws {
    try await withDemoServer { server in
      let body = "{\"id\": \"" + String(repeating: "a", count: 5 * 1_048_576) + "\"}"
      let file = try temporaryFile("big.json", body)
      let r = try await APXProcess.run(
        ["call", "grpc://127.0.0.1:\(server.grpcPort)/\(Self.service)/GetLesson", "-d", "@" + file])
      #expect(r.status == 2, "\(r.stderr)")
      #expect(
        r.stderr.contains("the request message is 5242885 bytes encoded, more than --max-message-size (4194304 bytes)"),
        "\(r.stderr)")
      #expect(!r.stderr.contains("retrying"), "\(r.stderr)")
    }
  }

  @Test func aStreamedMessagePastTheLimitIsAUsageError() async throws {
    try await withDemoServer { server in
      let small = #"{"filename": "n.txt", "data": "aGk="}"#
      let big = #"{"data": ""# + String(repeating: "YWFh", count: 1_048_576) + "\"}"
      let r = try await APXProcess.run(
        [
          "call", "grpc://127.0.0.1:\(server.grpcPort)/\(Self.service)/UploadDocumentChunks", "--max-message-size",
          "1000000",
        ], stdin: Data((small + "\n" + big + "\n").utf8))
      #expect(r.status == 2, "\(r.stderr)")
      #expect(r.stderr.contains("request message #2: the message is 3145733 bytes encoded"), "\(r.stderr)")
    }
  }
}
