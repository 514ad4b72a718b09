import APXCore
import APXRuntime
import APXTestSupport
import Foundation
import Testing

/// The run journal and the JUnit report, without a network.
@Suite("Recipe journal and JUnit report")
struct RecipeJournalTests {
  static func stateDirectory() -> String {
    TestScratch.root.appendingPathComponent("apx-journal-\(UUID().uuidString)").path
  }

  @Test func journalMasksSecretsAndReadsBackForResume() throws {
    let state = Self.stateDirectory()
    let journal = try RecipeJournal(stateDirectory: state, runID: "run-1", mask: SecretMask(secrets: ["s3cret-token"]))
    try journal.append(
      .start(
        RecipeJournalStart(
          runID: "run-1", recipePath: "/r/import.json",
          inputs: [JSONMember("csv", .string("b.csv")), JSONMember("key", .string("***"))], secretInputs: ["key"])),
      sync: true)
    try journal.append(
      .step(
        id: "upload", state: .ok, result: .object([JSONMember("token", .string("Bearer s3cret-token"))]),
        durationMs: 5), sync: true)
    try journal.append(.event(step: "watch", item: .object([JSONMember("id", .string("evt-1"))])))
    try journal.append(.end(state: "interrupted", at: "2026-01-01T00:00:00Z"), sync: true)

    let text = try String(contentsOfFile: journal.path, encoding: .utf8)
    #expect(!text.contains("s3cret-token"))
    #expect(text.contains("Bearer ***"))
    let attributes = try FileManager.default.attributesOfItem(atPath: journal.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)

    let record = try RecipeJournalRecord.read(path: journal.path)
    #expect(record.runID == "run-1")
    #expect(record.recipePath == "/r/import.json")
    #expect(record.secretInputs == ["key"])
    #expect(record.finished["upload"]?["token"] == .string("Bearer ***"))
    #expect(record.partialEvents["watch"]?.count == 1)
    #expect(!record.completed)
    #expect(record.lastState == "interrupted")
    #expect(RecipeJournalRecord.latestUnfinished(stateDirectory: state, recipePath: "/r/import.json")?.runID == "run-1")
    #expect(RecipeJournalRecord.latestUnfinished(stateDirectory: state, recipePath: "/r/other.json") == nil)
  }

  @Test func completedRunsAreNotResumed() throws {
    let state = Self.stateDirectory()
    let journal = try RecipeJournal(stateDirectory: state, runID: "run-2", mask: SecretMask())
    try journal.append(.start(RecipeJournalStart(runID: "run-2", recipePath: "/r/a.json")))
    try journal.append(.end(state: "ok", at: ""), sync: true)
    #expect(try RecipeJournalRecord.read(path: journal.path).completed)
    #expect(RecipeJournalRecord.latestUnfinished(stateDirectory: state, recipePath: "/r/a.json") == nil)
  }

  @Test func finishedLoopItemsAreReadBackUntilTheirStepFinishes() throws {
    let journal = try RecipeJournal(stateDirectory: Self.stateDirectory(), runID: "run-3", mask: SecretMask())
    func item(_ step: String, _ index: Int, of count: Int, _ result: JSONValue? = nil) throws {
      try journal.append(.item(step: step, index: index, of: count, result: result))
    }
    try journal.append(.start(RecipeJournalStart(runID: "run-3", recipePath: "/r/loop.json")))
    try item("views", 0, of: 5)
    try item("views", 3, of: 5, .object([JSONMember("status", .int(204))]))
    try item("views", 7, of: 5)  // out of range: ignored
    try item("done", 0, of: 2)
    try journal.append(.step(id: "done", state: .ok, result: .null, durationMs: 0))
    try item("resized", 0, of: 3)
    try item("resized", 1, of: 4)  // the list changed size: earlier indexes no longer apply
    try journal.append(.end(state: "failed", at: ""), sync: true)

    let record = try RecipeJournalRecord.read(path: journal.path)
    #expect(
      record.finishedItems["views"]
        == RecipeFinishedItems(count: 5, results: [0: .null, 3: .object([JSONMember("status", .int(204))])]))
    #expect(record.finishedItems["done"] == nil, "a finished step needs no items")
    #expect(record.finishedItems["resized"] == RecipeFinishedItems(count: 4, results: [1: .null]))
  }

  @Test func everyEntryReadsBackAsWritten() {
    let entries: [RecipeJournalEntry] = [
      .start(
        RecipeJournalStart(
          runID: "r", recipePath: "/a.json", name: "a", inputs: [JSONMember("n", .int(1))], secretInputs: ["k"],
          resumed: true, at: "2026-01-01T00:00:00Z")),
      .step(id: "s", state: .failed, result: .object([JSONMember("status", .null)]), durationMs: 12),
      .event(step: "w", item: .object([JSONMember("id", .string("1"))])),
      .item(step: "l", index: 2, of: 3, result: nil),
      .item(step: "l", index: 1, of: 3, result: .int(7)),
      .interrupted(step: "w"),
      .end(state: "ok", at: "2026-01-01T00:00:01Z"),
    ]
    for entry in entries {
      let text = entry.json.compactJSON
      let back = (try? JSONParser.parse(Array(text.utf8))).flatMap(RecipeJournalEntry.init(json:))
      #expect(back == entry, "\(text)")
    }
    #expect(RecipeJournalEntry(json: .object([JSONMember("type", .string("step"))])) == nil, "no id: not a step")
    #expect(RecipeJournalEntry(json: .object([JSONMember("type", .string("later"))])) == nil)
  }

  @Test func junitHasOneTestcasePerStepAndCheck() {
    let records = [
      RecipeStepRecord(
        id: "upload", call: "books.imports.create", state: .failed, result: .object([]),
        checks: [
          RecipeCheckResult(step: "upload", name: "status is 202", passed: 1, failed: 0),
          RecipeCheckResult(
            step: "upload", name: ".body.id exists", passed: 0, failed: 1, failure: ".body.id does not exist & <so>"),
        ], duration: 0.25, error: APXError(.expectation, "check failed"), calls: 1),
      RecipeStepRecord(
        id: "maybe", call: "books.imports.status", state: .skipped, result: .object([]), checks: [], duration: 0,
        error: nil, calls: 0),
    ]
    let result = RecipeRunResult(
      output: nil, records: records, checks: records.flatMap(\.checks), failure: nil, interrupted: false)
    let xml = JUnitReport(recipe: "r.json", result: result, stepIDs: ["upload", "maybe", "never"]).xml()
    #expect(
      xml.contains("<testsuite name=\"r.json\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"2\" time=\"0.250\">"),
      "\(xml)")
    #expect(xml.contains("<testcase classname=\"upload\" name=\"status is 202\" time=\"0.000\"/>"))
    #expect(xml.contains("<failure message=\".body.id does not exist &amp; &lt;so&gt;\">"))
    #expect(xml.contains("name=\"never: not run\""))
    #expect(result.checkCounts == (1, 1))
  }
}
