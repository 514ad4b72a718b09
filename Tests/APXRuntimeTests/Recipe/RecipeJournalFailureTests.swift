import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// A journal that cannot be written stops the run before its next call. The
/// failing writes are real: the journal file is a link to `/dev/full`, where
/// every write fails with ENOSPC (as root, a read-only folder would not stop one).
@Suite("Recipe journal: a failed write stops the run")
struct RecipeJournalFailureTests {
  static let api = """
    {
      "api": "journaldemo",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "endpoints": {
        "flaky": {
          "kind": "rest", "method": "GET", "path": "/api/v2/flaky",
          "params": { "key": { "in": "query", "required": true }, "fail": { "in": "query" } }
        }
      }
    }
    """

  /// A journal whose file is `/dev/full`.
  static func fullDiskJournal() throws -> RecipeJournal {
    let state = TestScratch.root.appendingPathComponent("apx-journal-full-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: state + "/runs", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: state + "/runs/run-full.jsonl", withDestinationPath: "/dev/full")
    return try RecipeJournal(stateDirectory: state, runID: "run-full", mask: SecretMask())
  }

  @Test func aFailedWriteIsThrownAndStaysFailed() throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
    let journal = try Self.fullDiskJournal()
    #expect(throws: APXError.self) {
      try journal.append(.start(RecipeJournalStart(runID: "run-full", recipePath: "/r.json")), sync: true)
    }
    let failure = try #require(journal.failure)
    #expect(failure.status == .internalFailure)
    #expect(failure.message.contains("run journal"), "\(failure)")
    #expect(failure.cause?.contains("No space left") == true, "\(failure)")
    #expect(throws: APXError.self, "an earlier failure stays") { try journal.sync() }
  }

  @Test func theRunStopsBeforeItsNextStepAndCannotBeResumed() async throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full")
    let recipe = try RecipeLoader.load(
      Array(
        """
        {
          "name": "two",
          "steps": [
            { "id": "first", "call": "journaldemo.flaky", "with": { "key": "jf-first", "fail": 0 } },
            { "id": "second", "call": "journaldemo.flaky", "with": { "key": "jf-second", "fail": 0 } }
          ]
        }
        """.utf8), file: "two.json")
    let journal = try Self.fullDiskJournal()
    try await withDemo { server, session in
      let runner = RecipeRunner(
        recipe: recipe,
        targets: [
          "journaldemo": RecipeTarget(api: try registry(Self.api), baseURL: server.httpBaseURL, environmentName: "demo")
        ],
        executor: Executor(session: session, environment: [:]), journal: journal, observer: nil, runID: "run-full")
      let result = await runner.run(inputs: .object([]))
      #expect(server.stats.flakyAttempts == ["jf-first": 1], "the second step is never sent")
      #expect(result.failure?.status == .internalFailure, "\(String(describing: result.failure))")
      #expect(result.failure?.message.contains("cannot write the run journal") == true)
      #expect(!result.resumable)
      #expect(result.output == nil)
    }
  }
}
