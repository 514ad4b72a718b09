import APXCore
import APXMock
import APXTestSupport
import Foundation
import Testing

/// `apx mock --replay`: an archive `apx call --har` recorded against the demo, answered back.
@Suite("apx mock --replay")
struct MockReplayTests {
  @Test func recordedExchangesAreAnsweredBackAndAMissNamesTheNearest() async throws {
    let har = TestScratch.root.appendingPathComponent("apx-replay-\(UUID().uuidString).har").path
    var recorded = ""
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", server.httpBaseURL + "/api/v2/bench/small", "--har", har])
      #expect(r.status == 0, "\(r.stderr)")
      recorded = r.stdout
    }
    let expected = try JSONParser.parse(recorded)
    try await MockProcess.with(["--replay", har]) { mock in
      let url = try #require(mock.urls["replay"], "\(mock.urls)")
      let again = try await APXProcess.run(["call", url + "/api/v2/bench/small"])
      #expect(again.status == 0, "\(again.stderr)")
      #expect(try JSONParser.parse(again.stdout) == expected)
      let miss = try await APXProcess.run(["call", url + "/api/v2/bench/smal"])
      #expect(miss.status == 4, "\(miss.stderr)")
      #expect(miss.stdout.contains("the nearest is GET /api/v2/bench/small"), "\(miss.stdout)")
    }
  }

  @Test func flagsThatCannotApplyAndFilesThatAreNotArchivesAreRefused() async throws {
    let notHAR = try temporaryFile("x.har", #"{"entries": []}"#)
    let r = try await APXProcess.run(["mock", "--replay", notHAR, "--port", "0"])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("is not an HTTP archive"), "\(r.stderr)")
    // A status HTTPTypes cannot hold stopped the server with SIGILL on the first matching request.
    let badStatus = try temporaryFile(
      "status.har",
      #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://x/a"}, "response": {"status": 1000}}]}}"#)
    let refused = try await APXProcess.run(["mock", "--replay", badStatus, "--port", "0"])
    #expect(refused.status == 3, "\(refused.stderr)")
    #expect(refused.stderr.contains("status.har#0: response.status 1000 is not an HTTP status"), "\(refused.stderr)")
    // Past the archive limit (a sparse file: its size is all that is read) is an unusable archive.
    let big = try temporaryFile("big.har", "")
    let handle = try #require(FileHandle(forWritingAtPath: big))
    try handle.truncate(atOffset: 300 << 20)
    try handle.close()
    let tooBig = try await APXProcess.run(["mock", "--replay", big, "--port", "0"])
    #expect(tooBig.status == 3, "\(tooBig.stderr)")
    #expect(
      tooBig.stderr.contains("is larger than 256 MiB, the most apx mock reads from one archive"), "\(tooBig.stderr)")
    let flags = try await APXProcess.run(["mock", "--replay", notHAR, "--fail-rate", "0.5"])
    #expect(flags.status == 2, "\(flags.stderr)")
    #expect(flags.stderr.contains("--fail-rate cannot be used with --replay"), "\(flags.stderr)")
  }
}

/// A browser's export (Chrome devtools' Save all as HAR: pages, `_initiator`, `_resourceType`,
/// HTTP/2 pseudo-headers, a base64 image, a form's `postData.params`, a blocked request) replayed.
@Suite("apx mock --replay: a browser's archive")
struct MockReplayBrowserArchiveTests {
  static let fixture = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/har/chrome-devtools-export.har")
    .path

  @Test func theExportIsReadAndAnsweredBack() async throws {
    let exchanges = try HARReader.exchanges(Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture))), name: "x")
    #expect(
      exchanges.map(\.requestLine) == ["GET /api/cart?currency=EUR&_=1732712345", "GET /img/logo.png", "POST /login"])
    #expect(exchanges.allSatisfy { !$0.headers.contains { $0.name.hasPrefix(":") || $0.name == "content-encoding" } })
    let png = try #require(
      Data(
        base64Encoded:
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))
    try await MockProcess.with(["--replay", Self.fixture]) { mock in
      let url = try #require(mock.urls["replay"])
      let cart = try await APXProcess.run(["call", url + "/api/cart?_=1732712345&currency=EUR"])
      #expect(cart.status == 0, "\(cart.stderr)")
      #expect(try JSONParser.parse(Array(cart.stdout.utf8))["total"] == .string("9.00"), "\(cart.stdout)")
      let logo = try await APXProcess.run(["call", url + "/img/logo.png", "-o", "raw"])
      #expect(logo.status == 0, "\(logo.stderr)")
      #expect(logo.stdoutBytes == png)
      let login = try await APXProcess.run(["call", "POST", url + "/login", "--form", "user=ana", "remember=on"])
      #expect(login.status == 0, "\(login.stderr)")
      #expect(login.stdout.contains(#""signedIn":true"#), "\(login.stdout)")
      // The blocked request has no answer to give.
      let blocked = try await APXProcess.run(["call", "POST", url + "/collect"])
      #expect(blocked.status == 4, "\(blocked.stderr)")
    }
  }
}
