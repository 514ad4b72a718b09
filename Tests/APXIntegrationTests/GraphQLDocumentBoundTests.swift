import APXTestSupport
import Foundation
import Testing

/// A GraphQL document is bounded before it is parsed (the parser holds about a hundred bytes per
/// byte of text): over the bound is exit 2 naming `--max-document-size`, which raises it.
@Suite("apx call --graphql: the document size bound")
struct GraphQLDocumentBoundTests {
  /// A valid query of about 1.3 MB: 50,000 aliased fields.
  static func largeDocument() throws -> String {
    let folder = TestScratch.root.appendingPathComponent("apx-graphql-bound-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("large.graphql")
    let fields = (0..<50_000).map { "a\($0): books { id title }" }.joined(separator: " ")
    try ("query { " + fields + " }").write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  @Test func aDocumentOverTheBoundIsRefusedUntilTheFlagRaisesIt() async throws {
    let file = try Self.largeDocument()
    let url = "http://127.0.0.1:9/graphql"
    let refused = try await APXProcess.run(["call", url, "--graphql", "@" + file, "--dry-run"])
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(
      refused.stderr.contains("more than the 1048576 apx parses") && refused.stderr.contains("--max-document-size"),
      "\(refused.stderr)")
    let raised = try await APXProcess.run([
      "call", url, "--graphql", "@" + file, "--max-document-size", "2000000", "--dry-run",
    ])
    #expect(raised.status == 0, "\(raised.stderr)")
    #expect(raised.stdout.contains("a49999: books"), "the whole document is sent")
  }

  @Test(arguments: [
    (["--max-document-size", "0"], "give a size from 1 to 268435456"),
    (["--max-document-size", "268435457"], "give a size from 1 to 268435456"),
  ])
  func aSizeOutOfRangeIsRefused(flags: [String], message: String) async throws {
    let r = try await APXProcess.run(["call", "http://127.0.0.1:9/graphql", "--graphql", "{ a }", "--dry-run"] + flags)
    #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
  }

  @Test func theFlagIsRefusedOnACallOfAnotherKind() async throws {
    let r = try await APXProcess.run(["call", "http://127.0.0.1:9/x", "--max-document-size", "10", "--dry-run"])
    #expect(r.status == 2 && r.stderr.contains("applies to GraphQL calls"), "\(r.stderr)")
  }
}
