import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// A streamed request body reports what went out (`CallEvent.bodySent`), for the CLI's
/// upload bar: totals when the length is known, and never after the answer's head.
@Suite struct UploadProgressTests {
  static let api = """
    {
      "api": "uploads",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "endpoints": {
        "raw": {
          "kind": "rest", "method": "POST", "path": "/api/v2/imports",
          "params": { "csv": { "in": "body", "type": "file", "content_type": "text/csv", "required": true },
                      "row_delay_ms": { "in": "query", "type": "number" } }
        },
        "multipart": {
          "kind": "rest", "method": "POST", "path": "/api/v2/imports",
          "params": { "file": { "in": "multipart", "type": "file", "required": true },
                      "row_delay_ms": { "in": "query", "type": "number" } }
        }
      }
    }
    """

  /// A CSV of `rows` 100-byte rows the demo imports.
  static func csv(rows: Int) throws -> String {
    let row = "A book," + String(repeating: "n", count: 92) + "\n"
    return try temporaryCSV("title,notes\n" + String(repeating: row, count: rows))
  }

  static func temporaryCSV(_ text: String) throws -> String {
    let url = TestScratch.root.appendingPathComponent("apx-upload-\(UUID().uuidString).csv")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  static func sent(_ events: [CallEvent]) -> [(bytes: Int, total: Int?)] {
    events.compactMap { if case .bodySent(let bytes, let total) = $0 { return (bytes, total) } else { return nil } }
  }

  @Test(arguments: ["raw", "multipart"])
  func aFileBodyReportsEveryByteSentBeforeTheAnswer(endpoint: String) async throws {
    let path = try Self.csv(rows: 30_000)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let sink = RecordingSink()
    try await withDemo { server, session in
      var request = try callRequest(
        try registry(Self.api), endpoint, baseURL: server.httpBaseURL, values: ["row_delay_ms": "0"])
      request.values.append((endpoint == "raw" ? "csv" : "file", .file(path: path)))
      _ = try await Executor(session: session, environment: [:]).call(request, sink: sink)
    }
    let events = sink.events
    let sent = Self.sent(events)
    #expect(sent.count > 1, "a 3 MB body goes out in chunks")
    #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.bytes < $1.bytes }, "counts only grow")
    let last = try #require(sent.last)
    let total = try #require(last.total)
    #expect(last.bytes == total, "the whole body went out")
    // The raw body is the file; a multipart body adds its part headers and boundaries.
    #expect(endpoint == "raw" ? total == size : total > size)
    let head = try #require(events.firstIndex { if case .responseHead = $0 { true } else { false } })
    let lastSent = try #require(events.lastIndex { if case .bodySent = $0 { true } else { false } })
    #expect(lastSent < head)
  }

  @Test func anInlineBodyReportsNothing() async throws {
    let sink = RecordingSink()
    try await withDemo { server, session in
      var request = try callRequest(try registry(Self.api), "raw", baseURL: server.httpBaseURL)
      request.data = .json(Array("title\nA\n".utf8))
      _ = try? await Executor(session: session, environment: [:]).call(request, sink: sink)
    }
    #expect(Self.sent(sink.events).isEmpty)
    #expect(!sink.requests.isEmpty)
  }
}
