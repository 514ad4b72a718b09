import APXCore
import APXTestSupport
import Foundation
import Synchronization
import Testing

/// `apx mock --record` in front of a server apx did not write (Python's `http.server`, whose
/// answers end when the connection closes), then `apx mock --replay` answering the same calls.
@Suite("apx mock --record against Python's http.server", .timeLimit(.minutes(5)))
struct MockRecordPythonUpstreamTests {
  static let upstream = PythonFixtureServer(
    script: "Tests/Fixtures/http/http_upstream_server.py", importCheck: "import http.server", scheme: "http")
  static let token = "pyUpstr3amBearer-51c0"

  static func calls(_ base: String) -> [[String]] {
    [
      ["call", base + "/books/7"],
      ["call", base + "/whoami", "-H", "Authorization: Bearer \(token)"],
      ["call", base + "/events", "-H", "Accept: text/event-stream", "--until-event", "done"],
      ["call", "POST", base + "/books", "title=Emma"],
    ]
  }

  @Test func aCloseDelimitedServerIsRecordedAndReplayed() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-py-\(UUID().uuidString)").path
    let recorded = Mutex<[APXResult]>([])
    try await Self.upstream.run { upstream in
      try await MockProcess.with(["--record", dir, "--upstream", upstream]) { mock in
        let url = try #require(mock.urls["record"], "\(mock.urls)")
        for call in Self.calls(url) {
          let r = try await APXProcess.run(call)
          #expect(r.status == 0, "\(call): \(r.stderr)")
          recorded.withLock { $0.append(r) }
        }
        // A HEAD answer's length is all it says of its body: it is passed on, not re-framed.
        let head = try await LoopbackHTTP.request(port: try mock.port("record"), "HEAD", "/books/7")
        let length = head.headers.first { $0.name.lowercased() == "content-length" }?.value
        #expect(head.status == 200 && length == "26", "\(head.headers)")
        #expect(!head.headers.contains { $0.name.lowercased() == "transfer-encoding" }, "\(head.headers)")
      }
    }
    let outputs = recorded.withLock { $0 }
    try #require(outputs.count == 4)
    #expect(try JSONParser.parse(Array(outputs[0].stdout.utf8))["title"] == .string("Dune"), "\(outputs[0].stdout)")
    #expect(outputs[1].stdout.contains(Self.token), "the upstream saw the credential: \(outputs[1].stdout)")
    #expect(outputs[2].stdout.split(separator: "\n").count == 3, "\(outputs[2].stdout)")
    #expect(try JSONParser.parse(Array(outputs[3].stdout.utf8))["id"]?.doubleValue == 8, "\(outputs[3].stdout)")

    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".har") }
    let file = try #require(files.first.map { dir + "/" + $0 }, "\(files)")
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!text.contains(Self.token), "the credential is in the recording")
    let entries = try HARTests.entries(file)
    #expect(entries.count == 5)
    let methods = entries.map { HARTests.request($0)["method"] as? String ?? "" }
    #expect(methods == ["GET", "GET", "GET", "POST", "HEAD"], "\(methods)")
    let statuses = entries.map { (HARTests.response($0)["status"] as? NSNumber)?.intValue ?? 0 }
    #expect(statuses == [200, 200, 200, 201, 200], "\(statuses)")
    let events = (entries[2]["_apx"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
    #expect(events.count == 3, "\(entries[2])")
    try await HARTests.expectValid([file])

    // The upstream is gone: every answer now comes from the recording.
    try await MockProcess.with(["--replay", dir, "--full-speed"]) { mock in
      let url = try #require(mock.urls["replay"], "\(mock.urls)")
      for (call, first) in zip(Self.calls(url), outputs) {
        let again = try await APXProcess.run(call)
        #expect(again.status == 0, "\(call): \(again.stderr)")
        #expect(again.stdout == first.stdout.replacingOccurrences(of: "Bearer \(Self.token)", with: "***"), "\(call)")
      }
      let head = try await LoopbackHTTP.request(port: try mock.port("replay"), "HEAD", "/books/7")
      let length = head.headers.first { $0.name.lowercased() == "content-length" }?.value
      #expect(head.status == 200 && length == "26", "\(head.headers)")
    }
  }
}
