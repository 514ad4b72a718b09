import APXCore
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
    let flags = try await APXProcess.run(["mock", "--replay", notHAR, "--fail-rate", "0.5"])
    #expect(flags.status == 2, "\(flags.stderr)")
    #expect(flags.stderr.contains("--fail-rate cannot be used with --replay"), "\(flags.stderr)")
  }
}
