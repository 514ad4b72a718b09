import APXCore
import APXTestSupport
import Foundation
import Synchronization
import Testing

/// `apx mock --record DIR --grpc-upstream` in front of the demo's gRPC server (read over its
/// reflection), then `apx mock --replay DIR` answering the same calls on `--grpc-port`.
@Suite("apx mock --record: gRPC")
struct MockGRPCRecordTests {
  static let token = "grpcRec0rdT0ken-51c2"
  static let service = "/classnotes.v1.ClassNotesAPI/"

  static func calls(_ base: String) -> [[String]] {
    [
      ["call", base + service + "GetLesson", "id=les_0001", "-H", "authorization: Bearer \(token)"],
      ["call", base + service + "GetLesson", "id=nope"],
      ["call", base + service + "StreamProcessingStatus", "lesson_id=les_0001"],
    ]
  }

  @Test func callsAreRecordedWithTheirMessagesAndStatusThenAnsweredBack() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-grpc-record-\(UUID().uuidString)").path
    let results = Mutex<[APXResult]>([])
    try await withDemoServer { server in
      try await MockProcess.with(["--record", dir, "--grpc-upstream", server.grpcBaseURL, "--grpc-port", "0"]) {
        mock in
        let url = try #require(mock.urls["record.grpc"], "\(mock.urls)")
        for call in Self.calls(url) {
          let result = try await APXProcess.run(call)
          results.withLock { $0.append(result) }
        }
      }
    }
    let recorded = results.withLock { $0 }
    #expect(recorded.map(\.status) == [0, 69, 0], "\(recorded.map(\.stderr))")
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first).description
    let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
    #expect(text.contains("Bearer ***") && !text.contains(Self.token))
    let entries = try HARTests.entries(dir + "/" + file)
    #expect(entries.count == 3)
    let trailers = (entries[1]["_apx"] as? [String: Any])?["trailers"] as? [[String: String]] ?? []
    #expect(trailers.contains { $0["name"] == "grpc-status" && $0["value"] == "5" }, "\(entries[1])")

    try await MockProcess.with(["--replay", dir, "--grpc-port", "0"]) { mock in
      let url = try #require(mock.urls["replay.grpc"], "\(mock.urls)")
      for (call, first) in zip(Self.calls(url), recorded) {
        let again = try await APXProcess.run(call)
        #expect(again.status == first.status, "\(call): \(again.stderr)")
        #expect(again.stdout == first.stdout, "\(call)")
      }
      let miss = try await APXProcess.run(["call", url + Self.service + "GetLesson", "id=les_0002"])
      #expect(miss.status == 69, "\(miss.stderr)")
      #expect(miss.stderr.contains("the nearest is POST \(Self.service)GetLesson"), "\(miss.stderr)")
    }
  }
}
