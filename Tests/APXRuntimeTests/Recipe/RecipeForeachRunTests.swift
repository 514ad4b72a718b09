import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Synchronization
import Testing

@testable import APXRuntime

/// `foreach` in the recipe runner, against the real demo server: items
/// journaled one by one so a resumed run calls only the unfinished ones, and
/// an `if` evaluated per item. The demo's `GET /api/v2/flaky?key=K&fail=N`
/// counts attempts per key and fails the first N, which makes item K fail on
/// the first run only — no timing involved.
@Suite("Recipe foreach: resume per item, if per item")
struct RecipeForeachRunTests {
  static let api = """
    {
      "api": "loopdemo",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "endpoints": {
        "flaky": {
          "kind": "rest", "method": "GET", "path": "/api/v2/flaky",
          "params": { "key": { "in": "query", "required": true }, "fail": { "in": "query" } }
        }
      }
    }
    """

  static func stateDirectory() -> String {
    TestScratch.root.appendingPathComponent("apx-foreach-\(UUID().uuidString)").path
  }

  static func load(_ text: String) throws -> Recipe {
    try RecipeLoader.load(Array(text.utf8), file: "loop.json")
  }

  /// `count` items `{"key": "<prefix><i>", "fail": 0|1, "on": true|false}`.
  static func items(_ count: Int, prefix: String, failing: Int? = nil, on: (Int) -> Bool = { _ in true }) -> JSONValue {
    .array(
      (0..<count).map { i in
        .object([
          JSONMember("key", .string("\(prefix)\(i)")), JSONMember("fail", .int(i == failing ? 1 : 0)),
          JSONMember("on", .bool(on(i))),
        ])
      })
  }

  static func runner(
    _ recipe: Recipe, server: DemoServer, session: HTTPSession, journal: RecipeJournal?,
    resume: RecipeJournalRecord? = nil, observer: (any RecipeObserver)? = nil, testMode: Bool = false
  ) throws -> RecipeRunner {
    let api = try registry(Self.api)
    return RecipeRunner(
      recipe: recipe,
      targets: ["loopdemo": RecipeTarget(api: api, baseURL: server.httpBaseURL, environmentName: "demo")],
      executor: Executor(session: session, environment: [:]), options: RecipeRunOptions(testMode: testMode),
      journal: journal, observer: observer, runID: "run-foreach", resume: resume)
  }

  static let resumable = """
    {
      "name": "loop",
      "inputs": { "items": { "type": "json", "required": true } },
      "steps": [
        { "id": "calls", "call": "loopdemo.flaky", "retry": 1,
          "foreach": { "over": "${input.items}", "as": "it", "concurrency": 3 },
          "with": { "key": "${it.key}", "fail": "${it.fail}" },
          "expect": { "status": 200 } }
      ],
      "output": { "attempts": "${steps.calls[].body.attempts}", "keys": "${steps.calls[].body.key}" }
    }
    """

  @Test func aResumedLoopCallsOnlyTheItemsThatDidNotFinish() async throws {
    let recipe = try Self.load(Self.resumable)
    let inputs = JSONValue.object([JSONMember("items", Self.items(10, prefix: "r", failing: 5))])
    let state = Self.stateDirectory()
    let journal = try RecipeJournal(stateDirectory: state, runID: "run-foreach", mask: SecretMask())
    try journal.append(.start(RecipeJournalStart(runID: "run-foreach", recipePath: "/loop.json")))
    try await withDemo { server, session in
      let first = try await Self.runner(recipe, server: server, session: session, journal: journal).run(inputs: inputs)
      #expect(first.failure != nil, "item 5 fails its first attempt")
      #expect(first.failure?.message.contains("503") == true, "\(first.failure?.message ?? "")")
      #expect(!first.interrupted)
      // Items before 5 finished and the ones in flight finished. Which later items had started
      // before the failure arrived depends on timing (with concurrency 3, r6 and r7 may finish
      // while r5 is still in flight, freeing a slot for r8): the resume checks below are what
      // must hold whatever started.
      let afterFirst = server.stats.flakyAttempts
      #expect(afterFirst["r5"] == 1)
      #expect(afterFirst.values.allSatisfy { $0 == 1 })

      let record = try RecipeJournalRecord.read(path: journal.path)
      let finished = try #require(record.finishedItems["calls"])
      #expect(finished.count == 10)
      #expect(
        Set(finished.results.keys) == Set(afterFirst.keys.filter { $0 != "r5" }.compactMap { Int($0.dropFirst()) }))
      #expect(finished.results[0]?["body"]?["key"] == .string("r0"), "kept results are journaled")

      let second = try await Self.runner(recipe, server: server, session: session, journal: journal, resume: record)
        .run(inputs: inputs)
      #expect(second.failure == nil, "\(second.failure?.message ?? "")")
      let attempts = server.stats.flakyAttempts
      #expect(attempts.count == 10)
      for i in 0..<10 {
        #expect(attempts["r\(i)"] == (i == 5 ? 2 : 1), "item \(i) was called \(attempts["r\(i)"] ?? 0) times")
      }
      let output = try #require(second.output)
      #expect(output["keys"] == .array((0..<10).map { .string("r\($0)") }), "results of resumed items are restored")
      #expect(output["attempts"] == .array((0..<10).map { .int($0 == 5 ? 2 : 1) }))
      let step = try #require(second.records.first)
      #expect(step.resumedItems == finished.results.count)
      #expect(step.calls == 10 - finished.results.count)
      #expect(
        RecipeStatusText.line(step: recipe.steps[0], record: step, terminal: false, colors: false)
          .contains("\(step.resumedItems) done before"))
    }
  }

  @Test func aResumeIgnoresFinishedItemsWhenTheListChangedSize() async throws {
    let recipe = try Self.load(Self.resumable)
    let state = Self.stateDirectory()
    let journal = try RecipeJournal(stateDirectory: state, runID: "run-foreach", mask: SecretMask())
    try journal.append(.start(RecipeJournalStart(runID: "run-foreach", recipePath: "/loop.json")))
    try await withDemo { server, session in
      let firstInputs = JSONValue.object([JSONMember("items", Self.items(4, prefix: "c", failing: 3))])
      let first = try await Self.runner(recipe, server: server, session: session, journal: journal)
        .run(inputs: firstInputs)
      #expect(first.failure != nil)
      let record = try RecipeJournalRecord.read(path: journal.path)
      #expect(record.finishedItems["calls"]?.count == 4)
      let otherInputs = JSONValue.object([JSONMember("items", Self.items(3, prefix: "c"))])
      let second = try await Self.runner(recipe, server: server, session: session, journal: journal, resume: record)
        .run(inputs: otherInputs)
      #expect(second.failure == nil, "\(second.failure?.message ?? "")")
      #expect(second.records.first?.resumedItems == 0)
      #expect(server.stats.flakyAttempts["c0"] == 2, "a list of another size is run whole")
    }
  }

  /// On a terminal a foreach draws percent, rate, ETA, and counts retried calls and failed
  /// items (it drew `19/60` only).
  @Test func theProgressBarCountsRetriesAndFailedItems() async throws {
    let recipe = try Self.load(
      """
      {
        "name": "bar",
        "inputs": { "items": { "type": "json", "required": true } },
        "steps": [
          { "id": "calls", "call": "loopdemo.flaky", "retry": 2, "continue_on_error": true,
            "foreach": { "over": "${input.items}", "as": "it" }, "with": { "key": "${it.key}", "fail": "${it.fail}" } }
        ]
      }
      """)
    let items = JSONValue.array(
      [("bar0", 0), ("bar1", 1), ("bar2", 50)].map {
        .object([JSONMember("key", .string($0.0)), JSONMember("fail", .int($0.1))])
      })
    let drawn = Mutex<[String]>([])
    let events = Mutex<[String]>([])
    let reporter = RecipeRunReporter(
      status: { text in drawn.withLock { $0.append(text) } }, events: { line in events.withLock { $0.append(line) } },
      terminal: true, colors: false,
      mask: SecretMask(), stepIDs: ["calls"])
    try await withDemo { server, session in
      let result = try await Self.runner(recipe, server: server, session: session, journal: nil, observer: reporter)
        .run(inputs: .object([JSONMember("items", items)]))
      // continue_on_error: bar2's failure does not fail the step; the bar and the final line count it.
      #expect(result.failure == nil, "\(result.failure?.message ?? "")")
      let record = try #require(result.records.first)
      #expect(record.failedItems == 1)
      let line = RecipeStatusText.line(step: recipe.steps[0], record: record, terminal: false, colors: false)
      #expect(line.contains("3 calls, 1 item failed"), "\(line)")
    }
    let stepEvent = try #require(events.withLock { $0 }.first { $0.contains("\"type\":\"step\"") })
    #expect(stepEvent.contains("\"failed_items\":1") && stepEvent.contains("\"retries\":2"), "\(stepEvent)")
    let bars = drawn.withLock { $0 }.filter { $0.contains("… calls  [") }
    let last = try #require(bars.last, "\(drawn.withLock { $0 })")
    #expect(last.contains("3/3  100%"), "\(last)")
    #expect(last.contains("2 retries"), "bar1 and bar2 each retried once: \(last)")
    #expect(last.contains("1 failed"), "\(last)")
    #expect(last.contains("/s"), "two 1 s Retry-After waits: a rate is shown: \(last)")
  }

  @Test func progressTextShowsPercentRateAndETA() {
    let step = RecipeStep(id: "up", call: "a.b")
    let p = RecipeStatusText.LoopProgress(done: 30, total: 120, elapsed: 10, retries: 1, failures: 0)
    #expect(
      RecipeStatusText.progress(step: step, p, width: 8)
        == "\r\u{1B}[2K… up  [##......]  30/120  25%  3.0/s  ETA 30s  1 retry")
    let stream = RecipeStatusText.LoopProgress(done: 67, total: nil, elapsed: 0.5)
    #expect(RecipeStatusText.progress(step: step, stream) == "\r\u{1B}[2K… up  67 items")
    #expect(RecipeStatusText.seconds(185) == "3m05s")
  }

  @Test func anIfReadingTheItemSkipsItemsOneByOne() async throws {
    let recipe = try Self.load(
      """
      {
        "name": "some",
        "inputs": { "items": { "type": "json", "required": true } },
        "steps": [
          { "id": "calls", "call": "loopdemo.flaky", "if": "${it.on}",
            "foreach": { "over": "${input.items}", "as": "it", "concurrency": 2 },
            "with": { "key": "${it.key}", "fail": 0 }, "expect": { "status": 200 } }
        ],
        "output": { "statuses": "${steps.calls[].status}" }
      }
      """)
    let inputs = JSONValue.object([JSONMember("items", Self.items(6, prefix: "s", on: { $0 % 3 != 1 }))])
    let observer = RecordingRecipeObserver()
    try await withDemo { server, session in
      let result = try await Self.runner(recipe, server: server, session: session, journal: nil, observer: observer)
        .run(inputs: inputs)
      #expect(result.failure == nil, "\(result.failure?.message ?? "")")
      #expect(Set(server.stats.flakyAttempts.keys) == ["s0", "s2", "s3", "s5"])
      let output = try #require(result.output)
      #expect(output["statuses"] == .array([.int(200), .null, .int(200), .int(200), .null, .int(200)]))
      let step = try #require(result.records.first)
      #expect(step.state == .ok)
      #expect(step.skippedItems == 2)
      #expect(step.calls == 4)
      #expect(result.checkCounts.passed == 4 && result.checkCounts.failed == 0)
      #expect(step.result.arrayValue?.filter { $0["skipped"] == .bool(true) }.count == 2)
      #expect(observer.skippedItems == [1, 4])
      let line = RecipeStatusText.line(step: recipe.steps[0], record: step, terminal: false, colors: false)
      #expect(line.contains("4 calls, 2 items skipped"), "\(line)")
      let xml = JUnitReport(recipe: "some.json", result: result, stepIDs: ["calls"]).xml()
      #expect(xml.contains("name=\"calls: 2 of 6 items skipped (if)\""), "\(xml)")
      #expect(xml.contains("skipped=\"1\""), "\(xml)")
    }
  }

  @Test func anIfThatDoesNotReadTheItemSkipsTheWholeStep() async throws {
    let recipe = try Self.load(
      """
      {
        "name": "none",
        "inputs": { "items": { "type": "json", "required": true }, "enabled": { "type": "boolean", "default": false } },
        "steps": [
          { "id": "calls", "call": "loopdemo.flaky", "if": "${input.enabled}",
            "foreach": { "over": "${input.items}", "as": "it" }, "with": { "key": "${it.key}", "fail": 0 } }
        ]
      }
      """)
    let inputs = JSONValue.object([
      JSONMember("items", Self.items(3, prefix: "n")), JSONMember("enabled", .bool(false)),
    ])
    try await withDemo { server, session in
      let result = try await Self.runner(recipe, server: server, session: session, journal: nil).run(inputs: inputs)
      #expect(result.failure == nil)
      #expect(result.records.first?.state == .skipped)
      #expect(server.stats.flakyAttempts.isEmpty)
    }
  }

  @Test func anIfThatCannotBeEvaluatedForAnItemFailsThatItem() async throws {
    let recipe = try Self.load(
      """
      {
        "name": "strict",
        "inputs": { "items": { "type": "json", "required": true } },
        "steps": [
          { "id": "calls", "call": "loopdemo.flaky", "if": "${it.missing.deeper}", "continue_on_error": true,
            "foreach": { "over": "${input.items}", "as": "it" }, "with": { "key": "${it.key}", "fail": 0 } }
        ]
      }
      """)
    let inputs = JSONValue.object([JSONMember("items", Self.items(2, prefix: "e"))])
    try await withDemo { server, session in
      let result = try await Self.runner(recipe, server: server, session: session, journal: nil).run(inputs: inputs)
      #expect(result.failure == nil, "continue_on_error")
      #expect(server.stats.flakyAttempts.isEmpty)
      #expect(result.records.first?.calls == 0)
    }
  }
}

/// Records which foreach items an observer saw skipped.
final class RecordingRecipeObserver: RecipeObserver {
  private let skipped = Mutex<[Int]>([])

  var skippedItems: [Int] { skipped.withLock { $0.sorted() } }

  func stepStarted(_ step: RecipeStep) {}
  func stepProgress(_ step: RecipeStep, done: Int, total: Int?) {}
  func streamItem(_ step: RecipeStep, item: JSONValue) {}
  func callNote(_ step: RecipeStep, note: RecipeCallNote) {}
  func itemFinished(_ step: RecipeStep, index: Int, result: JSONValue) {
    if result["skipped"] == .bool(true) { skipped.withLock { $0.append(index) } }
  }
  func stepFinished(_ step: RecipeStep, record: RecipeStepRecord) {}
}
