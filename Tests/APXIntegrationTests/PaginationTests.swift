import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call --all` against the demo catalogue, one route per page style:
/// the real binary follows the pages and prints every item as NDJSON when piped.
@Suite struct PaginationTests {
  /// Runs `apx call ENDPOINT ARGS... --all --base-url DEMO`.
  static func all(_ endpoint: String, _ arguments: [String], server: DemoServer) async throws -> APXResult {
    try await APXProcess.run(["call", endpoint] + arguments + ["--all", "--base-url", server.httpBaseURL])
  }

  /// The `id` of each NDJSON line, in order.
  static func ids(_ stdout: String) throws -> [Int] {
    try stdout.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return try #require(object?["id"] as? Int, "not an item: \(line)")
    }
  }

  @Test(arguments: [
    ("books.catalogue.list", ["per_page=10", "total=25"]),
    ("books.catalogue.scan", ["limit=7", "total=25"]),
    ("books.catalogue.pages", ["per_page=10", "total=25"]),
    ("books.catalogue.browse", ["per_page=10", "total=25"]),
  ])
  func everyStyleYieldsEveryItemOnceInOrder(_ endpoint: String, _ arguments: [String]) async throws {
    try await withDemoServer { server in
      let result = try await Self.all(endpoint, arguments, server: server)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...25))
      #expect(result.stderr.isEmpty, "nothing on stderr when it is not a terminal: \(result.stderr)")
    }
  }

  @Test func anAdHocURLFollowsLinkHeadersWithoutADeclaration() async throws {
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/api/v2/catalogue/link?per_page=10&total=25"
      let result = try await APXProcess.run(["call", url, "--all"])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...25))
      // The loop and origin rules hold without a declaration too.
      let hostile = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/catalogue/link?per_page=5&total=20&next_origin=http://127.0.0.2:9",
        "--all",
      ])
      #expect(hostile.status == 9, "\(hostile.stderr)")
      #expect(hostile.stderr.contains("links its next page to another origin"), "\(hostile.stderr)")
      #expect(try Self.ids(hostile.stdout) == Array(1...5))
      let loop = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/catalogue/link?per_page=5&total=100&loop_at=3", "--all",
      ])
      #expect(loop.status == 9, "\(loop.stderr)")
      #expect(loop.stderr.contains("the server's pages loop"), "\(loop.stderr)")
    }
  }

  @Test func anUndeclaredRegistryEndpointFollowsLinkHeadersAndAnObjectPageIsOneItem() async throws {
    try await withDemoServer { server in
      let registry = try temporaryFile(
        "pages.json",
        #"""
        {"api": "pages", "environments": {"demo": {"base_url": "\#(server.httpBaseURL)"}}, "endpoints": {
          "links": {"kind": "rest", "method": "GET", "path": "/api/v2/catalogue/link"},
          "object": {"kind": "rest", "method": "GET", "path": "/api/v2/catalogue/cursor"}}}
        """#)
      let linked = try await APXProcess.run([
        "call", "pages.links", "per_page==4", "total==10", "--all", "--registry", registry,
      ])
      #expect(linked.status == 0, "\(linked.stderr)")
      #expect(try Self.ids(linked.stdout) == Array(1...10))
      // No Link header and no declaration: the one page, an object, is the one item.
      let single = try await APXProcess.run([
        "call", "pages.object", "limit==3", "total==10", "--all", "--registry", registry,
      ])
      #expect(single.status == 0, "\(single.stderr)")
      let lines = single.stdout.split(separator: "\n")
      #expect(lines.count == 1, "\(single.stdout)")
      #expect(lines.first?.contains("\"next_cursor\"") == true, "\(single.stdout)")
    }
  }

  @Test func maxItemsStopsWithoutFetchingFurtherPages() async throws {
    try await withDemoServer { server in
      // Page 4 would fail (and --no-retry would end the call): it must never be asked for.
      let result = try await Self.all(
        "books.catalogue.list",
        ["per_page=5", "fail_page=4", "fail_times=100", "key=max-items", "--max-items", "12", "--no-retry"],
        server: server)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...12))
      #expect(server.stats.flakyAttempts["catalogue:max-items"] == nil)
    }
  }

  @Test func selectAppliesToEachItem() async throws {
    try await withDemoServer { server in
      let result = try await Self.all(
        "books.catalogue.scan", ["limit=4", "total=9", "--select", ".title", "-r"], server: server)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == (1...9).map { "Book \($0)\n" }.joined())
    }
  }

  @Test func aFailingPageIsRetriedByThePolicy() async throws {
    try await withDemoServer { server in
      let result = try await Self.all(
        "books.catalogue.pages", ["per_page=10", "total=30", "fail_page=2", "fail_times=2", "key=retried"],
        server: server)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...30))
      #expect(result.stderr.components(separatedBy: "retrying in").count == 3)
      #expect(server.stats.flakyAttempts["catalogue:retried"] == 3)
    }
  }

  @Test func aPageThatKeepsFailingIsNamedWithTheUsualExitCode() async throws {
    try await withDemoServer { server in
      let result = try await Self.all(
        "books.catalogue.list",
        ["per_page=10", "total=30", "fail_page=2", "fail_times=100", "key=named", "--retry", "2"], server: server)
      #expect(result.status == 5, "\(result.stderr)")
      #expect(
        result.stderr.contains("page 2 failed: GET /api/v2/catalogue/link?page=2&per_page=10"), "\(result.stderr)")
      #expect(result.stderr.contains("503"))
      #expect(try Self.ids(result.stdout) == Array(1...10), "page 1's items are printed before the failure")
      #expect(server.stats.flakyAttempts["catalogue:named"] == 2)
    }
  }

  @Test(arguments: ["books.catalogue.list", "books.catalogue.scan"])
  func aLoopStopsWithAClearError(_ endpoint: String) async throws {
    try await withDemoServer { server in
      let size = endpoint.hasSuffix("scan") ? "limit=5" : "per_page=5"
      let result = try await Self.all(endpoint, [size, "total=100", "loop_at=3"], server: server)
      #expect(result.status == 9, "\(result.stderr)")
      #expect(result.stderr.contains("the server's pages loop"), "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...15))
    }
  }

  @Test func theCredentialsNeverFollowALinkToAnotherOrigin() async throws {
    try await withDemoServer { server in
      let result = try await Self.all(
        "books.catalogue.list", ["per_page=5", "total=20", "next_origin=http://127.0.0.2:9", "-v"], server: server)
      #expect(result.status == 9, "\(result.stderr)")
      #expect(result.stderr.contains("links its next page to another origin (http://127.0.0.2:9)"), "\(result.stderr)")
      #expect(!result.stderr.contains("GET http://127.0.0.2"), "nothing is sent there")
      #expect(try Self.ids(result.stdout) == Array(1...5))
    }
  }

  @Test func thePageCapStopsARunawayServer() async throws {
    try await withDemoServer { server in
      let result = try await Self.all(
        "books.catalogue.browse", ["per_page=5", "total=100", "--max-pages", "3"], server: server)
      #expect(result.status == 9, "\(result.stderr)")
      #expect(result.stderr.contains("stopped after 3 pages, the page cap"), "\(result.stderr)")
      #expect(try Self.ids(result.stdout) == Array(1...15))
    }
  }

  @Test func misusedFlagsAreUsageErrors() async throws {
    try await withDemoServer { server in
      let unpaged = try await APXProcess.run([
        "call", "classnotes.lessons.get", "id=1", "--all", "--base-url", server.grpcBaseURL,
      ])
      #expect(unpaged.status == 2)
      #expect(
        unpaged.stderr.contains(
          "--all follows pages, and classnotes.lessons.get is a gRPC endpoint that declares none"),
        "\(unpaged.stderr)")
      let alone = try await APXProcess.run([
        "call", "books.catalogue.list", "--max-items", "3", "--base-url", server.httpBaseURL,
      ])
      #expect(alone.status == 2)
      #expect(alone.stderr.contains("--max-items goes with --all"), "\(alone.stderr)")
      let preview = try await Self.all("books.catalogue.list", ["--dry-run"], server: server)
      #expect(preview.status == 2)
      #expect(preview.stderr.contains("--dry-run shows one request"), "\(preview.stderr)")
    }
  }

  @Test func theDemoRejectsPagesItNeverIssued() async throws {
    try await withDemoServer { server in
      let cursor = try await APXProcess.run([
        "call", "books.catalogue.scan", "cursor=bm90LWEtY3Vyc29y", "--base-url", server.httpBaseURL,
      ])
      #expect(cursor.status == 4)
      #expect(cursor.stdout.contains("invalid_cursor"), "the error body is the answer: \(cursor.stdout)")
      let page = try await APXProcess.run([
        "call", "books.catalogue.pages", "page=4", "total=30", "per_page=10", "--base-url", server.httpBaseURL,
      ])
      #expect(page.status == 4)
      #expect(page.stdout.contains("invalid_page"), "\(page.stdout)")
    }
  }

  static let recipe = """
    {"name": "catalogue",
     "steps": [
       {"id": "books", "call": "books.catalogue.scan", "with": {"limit": 4, "total": 10}, "all": true,
        "expect": {".count": 10, ".last.id": 10}},
       {"id": "few", "call": "books.catalogue.pages", "with": {"per_page": 3}, "all": true, "max_items": 5,
        "expect": {".count": 5}}
     ],
     "output": {"books": "${steps.books.count}", "last": "${steps.books.last.title}", "few": "${steps.few.count}"}}
    """

  @Test func aRecipeStepFollowsEveryPage() async throws {
    let path = try temporaryFile("catalogue.json", Self.recipe)
    try await withDemoServer { server in
      let run = try await APXProcess.run(["run", path, "--base-url", server.httpBaseURL])
      #expect(run.status == 0, "\(run.stderr)")
      let output = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
      #expect(output?["books"] as? Int == 10)
      #expect(output?["last"] as? String == "Book 10")
      #expect(output?["few"] as? Int == 5)
      let preview = try await APXProcess.run(["run", path, "--dry-run", "--base-url", server.httpBaseURL])
      #expect(preview.status == 0, "\(preview.stderr)")
      #expect(preview.stdout.contains("\"all\":true") || preview.stdout.contains("\"all\": true"), "\(preview.stdout)")
      #expect(preview.stdout.contains("max_items"))
    }
  }

  @Test func recipeMistakesWithAllAreCaughtBeforeRunning() async throws {
    let unpaged = try temporaryFile(
      "unpaged.json", #"{"name": "u", "steps": [{"id": "a", "call": "classnotes.lessons.get", "all": true}]}"#)
    let result = try await APXProcess.run(["validate", unpaged])
    #expect(result.status == 3)
    #expect(
      result.stderr.contains("\"all\" follows pages, and classnotes.lessons.get is a gRPC endpoint that declares none"),
      "\(result.stderr)")
    let alone = try temporaryFile(
      "alone.json", #"{"name": "m", "steps": [{"id": "a", "call": "books.catalogue.list", "max_items": 3}]}"#)
    let second = try await APXProcess.run(["validate", alone])
    #expect(second.status == 3)
    #expect(second.stderr.contains("max_items goes with \"all\": true"), "\(second.stderr)")
  }

  @Test func gRPCPageTokensAreFollowed() async throws {
    try await withDemoServer { server in
      let result = try await APXProcess.run([
        "call", "classnotes.lessons.list", "page_size:=1", "--all", "--select", ".id", "-r",
        "--base-url", server.grpcBaseURL,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == "les_0001\nles_0002\nles_0003\n")
      // The demo rejects a token it did not issue, as a real server does.
      let bad = try await APXProcess.run([
        "call", "classnotes.lessons.list", "page_token=bm9wZQ==", "--base-url", server.grpcBaseURL,
      ])
      #expect(bad.status == 67, "INVALID_ARGUMENT: \(bad.stderr)")
    }
  }

  /// On a terminal (`PseudoTerminal` gives apx a pseudo-terminal for stderr; stdout goes to a
  /// file), the item count is drawn and erased; the items go to stdout untouched.
  @Test(.enabled(if: PseudoTerminal.unavailable == nil, "script(1) is not installed at /usr/bin/script"))
  func itemProgressIsDrawnOnATerminalOnly() async throws {
    try await withDemoServer { server in
      let out = TestScratch.root.appendingPathComponent("apx-pages-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: out) }
      let command =
        "'\(APXProcess.binary.path)' call books.catalogue.list per_page=10 total=30 --all "
        + "--base-url \(server.httpBaseURL) > '\(out)'"
      let terminal = try await PseudoTerminal.run(command)
      #expect(terminal.status == 0, "\(terminal.stdout)")
      // The first count is always drawn (later ones at most ten times a second).
      #expect(terminal.stdout.contains("10 done"), "the item count on the terminal: \(terminal.stdout)")
      #expect(terminal.stdout.hasSuffix("\u{1B}[2K"), "the bar is erased at the end: \(terminal.stdout)")
      #expect(try Self.ids(String(contentsOfFile: out, encoding: .utf8)) == Array(1...30))
    }
  }

  @Test func describeShowsHowAnEndpointPages() async throws {
    let result = try await APXProcess.run(["describe", "books.catalogue.scan", "-o", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    let pagination = try #require(object?["pagination"] as? [String: Any], "\(result.stdout)")
    #expect(pagination["style"] as? String == "cursor")
    #expect(pagination["next_cursor"] as? String == ".next_cursor")
    #expect(pagination["cursor_param"] as? String == "cursor")
    #expect(pagination["max_pages"] as? Int == 1000)
  }
}
