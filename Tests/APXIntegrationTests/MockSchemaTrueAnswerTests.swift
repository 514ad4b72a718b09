import APXTestSupport
import Foundation
import Testing

/// `apx mock --openapi` answers with values their schemas accept, for the shapes real 3.1
/// descriptions use, and judges request patterns in linear time.
@Suite("apx mock: schema-true answers", .timeLimit(.minutes(3)))
struct MockSchemaTrueAnswerTests {
  /// A description whose `Item` may hold a member with a look-around pattern (`code`).
  static func description(unreadablePattern: Bool) -> String {
    let code = unreadablePattern ? #", "code": {"type": "string", "pattern": "^(?=x)x$"}"# : ""
    let required = unreadablePattern ? #", "code""# : ""
    return #"""
      {"openapi": "3.1.0", "info": {"title": "Shelf", "version": "1"},
       "paths": {"/items": {"get": {"operationId": "listItems",
         "parameters": [{"name": "name", "in": "query", "schema": {"type": "string", "pattern": "^(a+)+$"}}],
         "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}}}}}},
       "components": {"schemas": {
         "Snowflake": {"type": "string", "pattern": "^(0|[1-9][0-9]{0,19})$"},
         "Owner": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
         "Item": {"type": "object", "required": ["id", "owner", "gone", "label", "tag"\#(required)], "properties": {
           "id": {"$ref": "#/components/schemas/Snowflake"},
           "owner": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Owner"}]},
           "gone": {"type": "null"},
           "label": {"type": "string"},
           "tag": {"type": ["string", "null"], "pattern": "^[A-Z]{2}-(red|green)$"}\#(code)}}}}}
      """#
  }

  /// Runs the mock of the description; returns its stderr.
  @discardableResult
  static func withMock(
    unreadablePattern: Bool, _ body: @escaping @Sendable (MockProcess.Running) async throws -> Void
  ) async throws -> String {
    let folder = TestScratch.root.appendingPathComponent("schema-true-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("shelf.json")
    try Data(description(unreadablePattern: unreadablePattern).utf8).write(to: file)
    return String(decoding: try await MockProcess.with(["--openapi", file.path], body).stderr, as: UTF8.self)
  }

  @Test func answersFitTheNullableIdiomPatternsAndExamples() async throws {
    try await Self.withMock(unreadablePattern: false) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items")
      #expect(answer.status == 200, "\(answer.text)")
      let item = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
      let id = try #require(item["id"] as? String, "\(answer.text)")
      #expect(id.range(of: "^(0|[1-9][0-9]{0,19})$", options: .regularExpression) != nil, "\(id)")
      let owner = try #require(item["owner"] as? [String: Any], "\(answer.text)")
      #expect(owner["name"] is String, "\(answer.text)")
      #expect(item["gone"] is NSNull, "\(answer.text)")
      #expect(item["label"] is String, "\(answer.text)")
      let tag = try #require(item["tag"] as? String, "\(answer.text)")
      #expect(tag.range(of: "^[A-Z]{2}-(red|green)$", options: .regularExpression) != nil, "\(tag)")
    }
  }

  /// The operation is named on stderr once the mock is up, before any request asks for it.
  @Test func aPatternBeyondTheGeneratorIsRefusedNotServedWrong() async throws {
    let stderr = try await Self.withMock(unreadablePattern: true) { mock in
      // The scan runs beside the serving; an answer waits for it, so its note is written first.
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items")
      #expect(answer.status == 500, "\(answer.text)")
      #expect(answer.text.contains("^(?=x)x$") && answer.text.contains("example"), "\(answer.text)")
    }
    #expect(stderr.contains("cannot be generated: no string can be drawn for the pattern ^(?=x)x$"), "\(stderr)")
    let clean = try await Self.withMock(unreadablePattern: false) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/items")
      #expect(answer.status == 200)
    }
    #expect(!clean.contains("cannot be generated"), "\(clean)")
  }

  // Swift's Regex backtracks on this pattern: 40 characters would not end within the limit.
  @Test func requestPatternsAreJudgedInLinearTime() async throws {
    try await Self.withMock(unreadablePattern: false) { mock in
      let port = try mock.port()
      let evil = String(repeating: "a", count: 40) + "!"
      let refused = try await LoopbackHTTP.request(port: port, "GET", "/items?name=\(evil)")
      #expect(refused.status == 400, "\(refused.text)")
      #expect(refused.text.contains("pattern"), "\(refused.text)")
    }
  }
}
