import APXDemoServer
import Foundation
import Testing

/// The BooksTrack V2 import API of the demo server, over real HTTP.
@Suite("Demo server: books imports")
struct DemoServerBooksTests {
  static let csv = "title,author\nDune,Frank Herbert\n,Nobody\n\"Quoted, with comma\",Someone\n"

  @Test func capabilitiesDescribeTheAPI() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/api/v2/capabilities")
      #expect(reply.status == 200)
      #expect(reply.json["api"] as? String == "books")
      #expect(reply.json["version"] as? String == "2")
      #expect(reply.json["formats"] as? [String] == ["text/csv"])
      #expect((reply.json["max_upload_bytes"] as? Int ?? 0) >= 64 * 1024 * 1024)
    }
  }

  @Test func createImportAnswers202WithJobLinks() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.createImport(Self.csv)
      #expect(reply.status == 202)
      let id = try #require(reply.json["job_id"] as? String)
      #expect(id.hasPrefix("imp_"))
      #expect(reply.json["status"] as? String == "queued")
      #expect(reply.json["total_rows"] as? Int == 3)
      #expect(reply.json["sse_url"] as? String == "/api/v2/imports/\(id)/stream")
      #expect(reply.json["status_url"] as? String == "/api/v2/imports/\(id)")
      #expect(demo.server.stats.importsCreated == 1)
    }
  }

  @Test func idempotencyKeyReturnsTheSameJobWithoutANewImport() async throws {
    try await DemoHTTPHarness.run { demo in
      let first = try await demo.createImport(Self.csv, headers: [("Idempotency-Key", "k-1")])
      let second = try await demo.createImport(Self.csv, headers: [("Idempotency-Key", "k-1")])
      let other = try await demo.createImport(Self.csv, headers: [("Idempotency-Key", "k-2")])
      #expect(first.status == 202)
      #expect(second.status == 202)
      #expect(first.json["job_id"] as? String == second.json["job_id"] as? String)
      #expect(other.json["job_id"] as? String != first.json["job_id"] as? String)
      #expect(demo.server.stats.importsCreated == 2)
      #expect(demo.server.stats.idempotentReplays == 1)
    }
  }

  @Test func rejectsBadUploads() async throws {
    try await DemoHTTPHarness.run { demo in
      let noTitle = try await demo.createImport("name,author\nDune,Herbert\n")
      #expect(noTitle.status == 400)
      let error = try #require(noTitle.json["error"] as? [String: Any])
      #expect(error["code"] as? String == "missing_title_column")
      #expect((error["message"] as? String)?.isEmpty == false)

      let empty = try await demo.createImport("")
      #expect(empty.status == 400)
      #expect((empty.json["error"] as? [String: Any])?["code"] as? String == "empty_body")

      let json = try await demo.send(
        .POST, "/api/v2/imports", headers: [("Content-Type", "application/json")], body: "{}")
      #expect(json.status == 415)
      #expect(demo.server.stats.importsCreated == 0)
    }
  }

  @Test func acceptsMultipartFilePart() async throws {
    try await DemoHTTPHarness.run { demo in
      let boundary = "XyZ-boundary-123"
      let body =
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
        + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"books.csv\"\r\n"
        + "Content-Type: text/csv\r\n\r\n\(Self.csv)\r\n--\(boundary)--\r\n"
      let reply = try await demo.send(
        .POST, "/api/v2/imports",
        headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
      #expect(reply.status == 202)
      #expect(reply.json["total_rows"] as? Int == 3)
    }
  }

  @Test func jobCompletesWithResultSummary() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1")
      let id = try #require(created.json["job_id"] as? String)
      let status = try await demo.waitForJob(id)
      #expect(status["status"] as? String == "complete")
      #expect(status["processed_rows"] as? Int == 3)
      #expect(status["progress"] as? Double == 1)
      let result = try #require(status["result"] as? [String: Any])
      #expect(result["imported"] as? Int == 2)
      #expect(result["skipped"] as? Int == 1)
      #expect((result["errors"] as? [[String: Any]])?.first?["row"] as? Int == 2)
    }
  }

  @Test func failAtFailsTheJob() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport(Self.csv, query: "?row_delay_ms=1&fail_at=0.5")
      let id = try #require(created.json["job_id"] as? String)
      let status = try await demo.waitForJob(id)
      #expect(status["status"] as? String == "failed")
      #expect((status["error"] as? [String: Any])?["message"] is String)
    }
  }

  @Test func unknownJobIs404JSON() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/api/v2/imports/imp_nope")
      #expect(reply.status == 404)
      #expect((reply.json["error"] as? [String: Any])?["code"] as? String == "not_found")
    }
  }
}
