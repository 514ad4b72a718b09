import Foundation
import Testing

/// `apx import openapi` of YAML with aliases: an alias bomb ("billion laughs") is refused while
/// the document is composed, with exit 3 and a message that says why; a description sharing
/// parts through anchors the ordinary way still imports.
@Suite("apx import: YAML aliases")
struct ImportAliasBombTests {
  /// Nine levels of nine aliases: 9^9 (387 million) strings in a few hundred bytes.
  static let bomb: String = {
    var lines = ["openapi: 3.0.3", "info: {title: bomb, version: '1'}", "paths: {}", "x-laughs:"]
    lines.append("  a0: &a0 [\(Array(repeating: "\"lol\"", count: 9).joined(separator: ", "))]")
    for level in 1..<9 {
      lines.append("  a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", "))]")
    }
    return lines.joined(separator: "\n") + "\n"
  }()

  /// Two operations sharing a parameter list and a response through anchors.
  static let shared = """
    openapi: 3.0.3
    info: {title: anchors, version: '1'}
    servers: [{url: 'https://example.test/v1'}]
    paths:
      /books:
        get:
          operationId: listBooks
          parameters: &paging
            - {name: cursor, in: query, schema: {type: string}}
            - {name: limit, in: query, schema: {type: integer}}
          responses: &ok
            '200': {description: fine, content: {application/json: {schema: {type: object}}}}
      /authors:
        get:
          operationId: listAuthors
          parameters: *paging
          responses: *ok
    """

  @Test func anAliasBombIsRefusedWithExit3AndWhy() async throws {
    let work = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: work) }
    let file = work.appendingPathComponent("bomb.yaml")
    try Self.bomb.write(to: file, atomically: true, encoding: .utf8)
    let r = try await APXProcess.run(["import", "openapi", file.path, "--out", work.path], timeout: 120)
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("too many alias expansions"), "\(r.stderr)")
    #expect(r.stderr.contains("alias bombs"), "\(r.stderr)")
    #expect(r.stderr.contains("$ref"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("bomb.json").path))
  }

  @Test func anchorsSharedByOperationsStillImport() async throws {
    let work = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: work) }
    let file = work.appendingPathComponent("anchors.yaml")
    try Self.shared.write(to: file, atomically: true, encoding: .utf8)
    let r = try await APXProcess.run(
      ["import", "openapi", file.path, "--api", "anchors", "--out", work.path], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let describe = try await APXProcess.run(["describe", "anchors.list-authors", "--registry", work.path])
    #expect(describe.status == 0, "\(describe.stderr)")
    #expect(describe.stdout.contains("limit"), "\(describe.stdout)")
  }
}
