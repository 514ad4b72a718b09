import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx run` and `apx validate` on recipes, run as the real binary against the demo backend.
@Suite("apx run (recipes)")
struct RecipeTests {
  static let recipes = APXProcess.packageRoot.appendingPathComponent("Recipes")

  static func recipe(_ name: String) -> String { recipes.appendingPathComponent(name).path }

  /// A fresh state directory, so a test sees only its own journals.
  static func stateDirectory() -> String {
    TestScratch.root.appendingPathComponent("apx-recipe-state-\(UUID().uuidString)").path
  }

  static func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(Array(text.utf8))
  }

  @Test func importCSVRunsGreen() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("import-csv.json"), "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      let output = try Self.json(r.stdout)
      #expect(output["status"] == .string("complete"))
      #expect(output["rows"] == .number("12"))
      #expect(output["result"]?["imported"] == .number("11"))
      #expect(output["result"]?["skipped"] == .number("1"))
      #expect((output["events"]?.intValue ?? 0) > 2)
      #expect(server.stats.importsCreated == 1)
      // stderr: one plain line per step (not a terminal).
      let lines = r.stderr.split(separator: "\n")
      #expect(lines.count == 3, "\(r.stderr)")
      #expect(lines.first?.hasPrefix("step upload (books.imports.create): ok") == true)
    }
  }

  /// The V1 recipe: a REST upload, then a websocket step that watches until `complete`, with
  /// the API's OAuth2 token in the subprotocol (the demo requiring it), its messages captured
  /// as an SSE step's events are, and progress events and JUnit as for SSE.
  @Test func importCSVOverV1WebSocketRunsGreenWithEventsAndJUnit() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let junit = TestScratch.root.appendingPathComponent("apx-junit-\(UUID().uuidString).xml").path
      let r = try await APXProcess.run(
        [
          "run", Self.recipe("import-csv-v1.json"), "row_delay_ms:=1", "--base-url", server.httpBaseURL, "--events",
          "--report", "junit", junit,
        ], environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let progress = values.filter { $0["type"] == .string("progress") && $0["step"] == .string("watch") }
      #expect(!progress.isEmpty, "the watch step reports the declared progress: \(r.stdout)")
      let output = try #require(values.last { $0["type"] == .string("output") }?["output"], "\(r.stdout)")
      #expect((output["messages"]?.intValue ?? 0) >= 2, "a snapshot and the complete message at least: \(output)")
      #expect(output["result"]?["imported"] == .number("11"), "\(output)")
      let xml = try String(contentsOfFile: junit, encoding: .utf8)
      #expect(xml.contains("name=\"watch\"") && !xml.contains("<failure"), "\(xml)")
      #expect(server.stats.tokensIssued == 1, "one token for the upload and the watch")
    }
  }

  /// `apx run -v` shows a websocket step's frames as `apx call -v` does, and the OAuth2
  /// token the subprotocol carries stays masked.
  @Test func verboseRunShowsTheWebSocketStepsFrames() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("import-csv-v1.json"), "row_delay_ms:=1", "--base-url", server.httpBaseURL, "-v"],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("< HTTP/1.1 101"), "\(r.stderr)")
      #expect(r.stderr.contains("< [text frame, "), "\(r.stderr)")
      #expect(r.stderr.contains("> Sec-WebSocket-Protocol: bookstrack-auth.***\n"), "\(r.stderr)")
    }
  }

  @Test func importCSVWithTheEmbeddedDemo() async throws {
    let r = try await APXProcess.run(
      ["run", Self.recipe("import-csv.json"), "--demo"], environment: ["APX_STATE_DIR": Self.stateDirectory()])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.json(r.stdout)["status"] == .string("complete"))
  }

  @Test func importCSVFallsBackToPollingWhenTheStreamIsRefused() async throws {
    // refuse_stream is a query parameter of imports.create: run a copy of the recipe that sets it.
    let text = try String(contentsOfFile: Self.recipe("import-csv.json"), encoding: .utf8)
      .replacingOccurrences(
        of: "\"row_delay_ms\": \"${input.row_delay_ms}\"",
        with: "\"row_delay_ms\": \"${input.row_delay_ms}\", \"refuse_stream\": true"
      )
      .replacingOccurrences(
        of: "\"default\": \"data/books.csv\"", with: "\"default\": \"\(Self.recipes.path)/data/books.csv\"")
    let path = try temporaryFile("import-poll.json", text)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--events", "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()], timeout: 120)
      #expect(r.status == 0, "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      #expect(values.last?["output"]?["status"] == .string("complete"), "\(r.stdout)")
      #expect(server.stats.streamsRefused >= 1)
      #expect(server.stats.requestsByRoute["GET /api/v2/imports/{id}", default: 0] >= 2)
      // The fallback shows in the status line, as an event, and in the report.
      #expect(r.stderr.contains("fell back to polling books.imports.status"), "\(r.stderr)")
      let fallback = values.first { $0["type"] == .string("fell_back_to_polling") }
      #expect(fallback?["step"] == .string("watch"), "\(r.stdout)")
      #expect(fallback?["endpoint"] == .string("books.imports.status"), "\(r.stdout)")
      #expect(values.filter { $0["type"] == .string("reconnecting") && $0["step"] == .string("watch") }.count >= 1)
      let step = values.first { $0["type"] == .string("step") && $0["step"] == .string("watch") }
      #expect(step?["fell_back_to"] == .array([.string("books.imports.status")]), "\(r.stdout)")
      #expect(step?["result"]?["status"] == .int(200), "the last poll's status, not the refused stream's")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("polling books.imports.status every 1.00s instead"), "\(xml)")
    }
  }

  @Test func dryRunShowsEveryCallOfAJSONRPCBatchAsOneDocument() async throws {
    let path = try temporaryFile(
      "batch.json",
      """
      {
        "name": "batch",
        "steps": [
          { "id": "batch", "call": "calc.subtract", "with": { "minuend": 42, "subtrahend": 2 },
            "batch": [
              { "call": "calc.log", "with": { "message": "hi" } },
              { "call": "calc.constants" }
            ] }
        ]
      }
      """)
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--dry-run", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.requestsByRoute.isEmpty, "a dry run sends nothing")
      let line = try Self.json(r.stdout)
      #expect(line["method"] == .string("POST"))
      #expect(
        line["body"]
          == (try Self.json(
            """
            [{"jsonrpc":"2.0","method":"subtract","params":[42,2],"id":1},
             {"jsonrpc":"2.0","method":"log","params":{"message":"hi"}},
             {"jsonrpc":"2.0","method":"constants","id":3}]
            """)),
        "\(r.stdout)")
      #expect(line["batch"]?.arrayValue?.compactMap { $0["call"]?.stringValue } == ["calc.log", "calc.constants"])
    }
  }

  @Test func aRetriedStepShowsItsRetriesInTheStatusLineEventsAndJUnit() async throws {
    let path = try temporaryFile(
      "retried.json",
      """
      {
        "name": "retried",
        "steps": [
          { "id": "fetch", "call": "books.flaky.get", "with": { "key": "r1", "fail": 2, "retry_after": 0 },
            "expect": { "status": 200 } }
        ]
      }
      """)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--events", "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.flakyAttempts["r1"] == 3)
      #expect(r.stderr.contains("step fetch (books.flaky.get): ok, status 200, 2 retries, "), "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let retries = values.filter { $0["type"] == .string("retrying") }
      #expect(retries.compactMap { $0["attempt"]?.intValue } == [2, 3], "\(r.stdout)")
      #expect(retries.allSatisfy { $0["step"] == .string("fetch") })
      #expect(retries.first?["reason"]?.stringValue?.contains("503") == true, "\(r.stdout)")
      let step = values.first { $0["type"] == .string("step") }
      #expect(step?["retries"] == .int(2), "\(r.stdout)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("<system-out>"), "\(xml)")
      #expect(xml.components(separatedBy: "retrying in").count == 3, "\(xml)")
      #expect(xml.contains("(attempt 3)"), "\(xml)")
    }
  }

  @Test func aStepThatFailsAfterRetriesStillShowsThem() async throws {
    let path = try temporaryFile(
      "exhausted.json",
      """
      {
        "name": "exhausted",
        "steps": [
          { "id": "fetch", "call": "books.flaky.get", "with": { "key": "x1", "fail": 9, "retry_after": 0 } }
        ]
      }
      """)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status != 0, "\(r.stderr)")
      // books allows 4 attempts: 3 retries, then the step fails with them counted.
      #expect(server.stats.flakyAttempts["x1"] == 4)
      #expect(r.stderr.contains("step fetch (books.flaky.get): failed, 3 retries"), "\(r.stderr)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("<failure"), "\(xml)")
      #expect(xml.components(separatedBy: "retrying in").count == 4, "\(xml)")
    }
  }

  @Test func brokenReferenceFailsValidationBeforeAnyRequest() async throws {
    let text = """
      {
        "name": "broken",
        "inputs": { "csv": { "type": "file", "required": true } },
        "steps": [
          { "id": "upload", "call": "books.imports.create", "with": { "csv": "${input.csv}" } },
          { "id": "watch", "call": "books.imports.watch",
            "with": { "job_id": "${steps.uplaod.body.job_id}" } }
        ]
      }
      """
    let path = try temporaryFile("broken.json", text)
    let csv = try temporaryFile("b.csv", "title\nA\n")
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "csv=@\(csv)", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 3, "\(r.stderr)")
      #expect(r.stderr.contains("\(path):7:27"), "\(r.stderr)")
      #expect(r.stderr.contains("did you mean \"upload\"?"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(server.stats.requestsByRoute.isEmpty, "\(server.stats.requestsByRoute)")
      #expect(server.stats.tokenRequests == 0)

      let v = try await APXProcess.run(["validate", path])
      #expect(v.status == 3)
      #expect(v.stderr.contains("\(path):7:27"), "\(v.stderr)")
      #expect(server.stats.requestsByRoute.isEmpty)
    }
  }

  @Test func gifsPagesRunsGreenWithBoundedConcurrency() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("gifs-pages.json"), "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "the demo's key is implied without GIFS_API_KEY: \(r.stderr)")
      let output = try Self.json(r.stdout)
      #expect(output["pages"] == .number("5"))
      #expect(output["titles"]?.arrayValue?.count == 50)
      #expect(output["titles"]?[0] == .string("Café ☕ dance"))
      #expect(server.stats.views == 50)
      #expect(server.stats.maxViewsInFlight <= 4, "concurrency bound: \(server.stats.maxViewsInFlight)")
      #expect(server.stats.maxViewsInFlight >= 2, "the views did overlap")
      #expect(!r.combined.contains("demo-key"), "the API key never shows")
    }
  }

  /// GIFS_API_KEY, when set, is the key sent: a wrong one is refused by the server.
  @Test func gifsPagesSendsTheGivenAPIKey() async throws {
    try await withDemoServer { server in
      var env = ["APX_STATE_DIR": Self.stateDirectory()]
      env["GIFS_API_KEY"] = "not-the-demo-key"
      let r = try await APXProcess.run(
        ["run", Self.recipe("gifs-pages.json"), "--base-url", server.httpBaseURL], environment: env)
      #expect(r.status != 0)
      #expect(r.stderr.contains("API key") || r.stderr.contains("GIFS_API_KEY"), "\(r.stderr)")
    }
  }

  @Test func dryRunPrintsRequestsAndSendsNothing() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("gifs-pages.json"), "--dry-run", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory(), "GIFS_API_KEY": "demo-key"])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 2)
      let first = try Self.json(try #require(lines.first))
      #expect(first["method"] == .string("GET"))
      #expect(first["url"]?.stringValue?.contains("/gifs/trending?page=") == true)
      #expect(!r.combined.contains("demo-key"), "secrets masked")
      #expect(server.stats.requestsByRoute.isEmpty, "\(server.stats.requestsByRoute)")
    }
  }

  /// What only a real run can know reads as the recipe wrote it, also inside a URL path
  /// (it was shown percent-encoded: %24%7Bsteps.upload.job_id%7D).
  @Test func dryRunShowsUnknownResultsAsTheirReferences() async throws {
    let r = try await APXProcess.run(
      ["run", Self.recipe("import-csv.json"), "--dry-run", "--base-url", "http://127.0.0.1:1"],
      environment: ["APX_STATE_DIR": Self.stateDirectory()])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
    let watch = try #require(lines.first { $0["step"] == .string("watch") })
    #expect(watch["url"] == .string("http://127.0.0.1:1/api/v2/imports/${steps.upload.job_id}/stream"), "\(r.stdout)")
    #expect(!r.stdout.contains("%24%7B") && !r.stdout.contains("__apx_unresolved"), "\(r.stdout)")
  }

  @Test func eventsModeStreamsStepResultsAsNDJSON() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("import-csv.json"), "--events", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let types = values.compactMap { $0["type"]?.stringValue }
      #expect(types.filter { $0 == "step" }.count == 3)
      #expect(types.contains("item"))
      #expect(types.last == "output")
      #expect(values.last?["output"]?["status"] == .string("complete"))
    }
  }

  @Test func testModeCountsChecksAndWritesJUnit() async throws {
    let text = """
      {
        "name": "smoke",
        "steps": [
          { "id": "caps", "call": "books.capabilities.get",
            "expect": { "status": 200, ".body.api": "books", ".body.version": "3" } },
          { "id": "again", "call": "books.capabilities.get", "expect": { ".body.formats[0]": { "matches": "^text/" } } }
        ]
      }
      """
    let path = try temporaryFile("smoke.json", text)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--test", "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("3 passed, 1 failed"), "\(r.stderr)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.hasPrefix("<?xml"))
      #expect(xml.contains("<testsuite name=\"\(path)\" tests=\"6\" failures=\"1\""), "\(xml)")
      #expect(xml.contains("<failure message=\".body.version is &quot;2&quot;, expected &quot;3&quot;\""), "\(xml)")
      #expect(xml.contains("name=\"again: books.capabilities.get\""), "test mode runs on after a failed check")
    }
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        [
          "run", Self.recipe("import-csv.json"), "--test", "--report", "junit", report, "--base-url",
          server.httpBaseURL,
        ],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("6 passed, 0 failed"), "\(r.stderr)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("failures=\"0\""))
    }
  }

  /// Waits (bounded) until the journal in `runs` holds the upload step and a few stream events
  /// of import-csv's watch.
  static func waitUntilWatching(runs: String) async throws {
    let deadline = Date().addingTimeInterval(30)
    var journal = ""
    while Date() < deadline {
      if let name = try? FileManager.default.contentsOfDirectory(atPath: runs).first,
        let text = try? String(contentsOfFile: runs + "/" + name, encoding: .utf8)
      {
        journal = text
        if text.contains("\"id\":\"upload\",\"state\":\"ok\""),
          text.components(separatedBy: "\"type\":\"event\"").count > 3
        {
          break
        }
      }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    #expect(journal.contains("\"id\":\"upload\""), "the upload was journaled: \(journal)")
  }

  /// Under `--events`, the step Ctrl-C stopped ends with a `step` event of state `interrupted`;
  /// the JUnit report lists it as skipped, interrupted.
  @Test func anInterruptedStepIsAnEvent() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer { server in
      let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
      let arguments = [
        "run", Self.recipe("import-csv.json"), "row_delay_ms=300", "--events", "--report", "junit", report,
        "--base-url", server.httpBaseURL,
      ]
      let interrupted = try await ChildProcess.run(
        APXProcess.binary.path, arguments, environment: APXProcess.environment(adding: ["APX_STATE_DIR": state]),
        timeout: 120
      ) { run in
        try await Self.waitUntilWatching(runs: state + "/runs")
        run.send(SIGINT)
      }
      #expect(!interrupted.signaled && interrupted.status == 130)
      let stdout = String(decoding: interrupted.stdout, as: UTF8.self)
      let values = try stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let steps = values.filter { $0["type"] == .string("step") }
      #expect(steps.map { $0["step"] } == [.string("upload"), .string("watch")], "\(stdout)")
      #expect(steps.map { $0["state"] } == [.string("ok"), .string("interrupted")], "\(stdout)")
      #expect(steps.last?["error"]?.stringValue?.contains("interrupted during step") == true, "\(stdout)")
      #expect(values.last?["type"] == .string("step"), "nothing follows it (no output): \(stdout)")
      // The report lists it as skipped, saying it was interrupted; the step after it never ran.
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      let watch = try #require(xml.range(of: "name=\"watch: books.imports.watch\""), "\(xml)")
      let watchCase = String(xml[watch.lowerBound...]).components(separatedBy: "</testcase>").first ?? ""
      #expect(watchCase.contains("<skipped/>") && watchCase.contains("interrupted while it ran"), "\(xml)")
      #expect(xml.contains("name=\"status: not run\""), "\(xml)")
    }
  }

  /// The V1 recipe stopped by Ctrl-C while its websocket step watches: the resume skips the
  /// upload and watches again, as for an SSE step.
  @Test func anInterruptedV1WatchResumesWithoutASecondUpload() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer { server in
      // 12 rows at 300 ms: the watch is still running when Ctrl-C arrives.
      let arguments = ["run", Self.recipe("import-csv-v1.json"), "row_delay_ms=300", "--base-url", server.httpBaseURL]
      let interrupted = try await ChildProcess.run(
        APXProcess.binary.path, arguments, environment: APXProcess.environment(adding: ["APX_STATE_DIR": state]),
        timeout: 120
      ) { run in
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, server.stats.streamConnections == 0 {
          try await Task.sleep(nanoseconds: 10_000_000)
        }
        run.send(SIGINT)
      }
      #expect(!interrupted.signaled && interrupted.status == 130)
      let stderr = String(decoding: interrupted.stderr, as: UTF8.self)
      #expect(stderr.contains("step watch (books.imports.progress_v1): interrupted, "), "\(stderr)")
      #expect(server.stats.importsCreated == 1)

      let r = try await APXProcess.run(
        ["run", Self.recipe("import-csv-v1.json"), "--resume", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": state], timeout: 60)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.importsCreated == 1, "no second upload")
      #expect(server.stats.streamConnections == 2, "the watch connected again")
      #expect(try Self.json(r.stdout)["result"]?["imported"] == .number("11"), "\(r.stdout)")
      #expect(r.stderr.contains("resuming run"))
    }
  }

  @Test func interruptedRunResumesWithoutASecondUpload() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer { server in
      // Slow rows (12 x 300 ms) so that the watch is still running when Ctrl-C arrives, even
      // on a loaded machine (12 x 150 ms could finish before the signal under CI load).
      let arguments = ["run", Self.recipe("import-csv.json"), "row_delay_ms=300", "--base-url", server.httpBaseURL]
      let runs = state + "/runs"
      let interrupted = try await ChildProcess.run(
        APXProcess.binary.path, arguments, environment: APXProcess.environment(adding: ["APX_STATE_DIR": state]),
        timeout: 120
      ) { run in
        try await Self.waitUntilWatching(runs: runs)
        run.send(SIGINT)
      }
      #expect(!interrupted.signaled && interrupted.status == 130)
      let stderr = String(decoding: interrupted.stderr, as: UTF8.self)
      #expect(stderr.contains("--resume"), "\(stderr)")
      // The step that was running says so, as finished steps do.
      #expect(stderr.contains("step watch (books.imports.watch): interrupted, "), "\(stderr)")
      #expect(server.stats.importsCreated == 1)
      let files = try FileManager.default.contentsOfDirectory(atPath: runs)
      #expect(files.count == 1)
      let attributes = try FileManager.default.attributesOfItem(atPath: runs + "/" + files[0])
      #expect((attributes[.posixPermissions] as? Int) == 0o600)

      let r = try await APXProcess.run(
        ["run", Self.recipe("import-csv.json"), "--resume", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": state], timeout: 60)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.importsCreated == 1, "no second upload")
      #expect(server.stats.idempotentReplays == 0, "the upload step was skipped, not replayed")
      #expect(server.stats.streamConnections == 2, "the stream was resumed")
      let output = try Self.json(r.stdout)
      #expect(output["status"] == .string("complete"))
      // 12 rows: queued, started, one progress event per row, complete — none lost, none twice.
      #expect(output["events"] == .number("15"), "\(r.stdout)")
      #expect(r.stderr.contains("resuming run"))

      let again = try await APXProcess.run(
        ["run", Self.recipe("import-csv.json"), "--resume", "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": state])
      #expect(again.status == 2, "nothing left to resume: \(again.stderr)")
    }
  }

  @Test func lessonLifecycleRunsGreenOverGRPC() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("lesson-lifecycle.json"), "--base-url", "grpc://127.0.0.1:\(server.grpcPort)"],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      let output = try Self.json(r.stdout)
      #expect(output["stage"] == .string("COMPLETED"))
      #expect(output["updates"] == .number("4"))
      #expect(output["listed"] == .number("25"))
      let deleted = output["deleted"]?.arrayValue ?? []
      #expect(deleted.count == 25)
      #expect(deleted.contains(output["lesson"] ?? .null))
      #expect(
        r.stderr.contains("step delete (classnotes.lessons.batch_delete): ok, 3 calls"), "chunks of 10: \(r.stderr)")
    }
  }

  /// classnotes.lessons.status declares `"progress": {"fraction": ".progress"}`: each streamed gRPC
  /// message is a progress event of its step, as an SSE event is.
  @Test func aGRPCStreamStepReportsTheDeclaredProgress() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", Self.recipe("lesson-lifecycle.json"), "--events", "--base-url", "grpc://127.0.0.1:\(server.grpcPort)"],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let progress = values.filter { $0["type"] == .string("progress") }
      #expect(progress.allSatisfy { $0["step"] == .string("processing") }, "\(r.stdout)")
      // QUEUED 0, OCR 1/3, ANALYSIS 2/3 (COMPLETED ends the step's `until`).
      let fractions = progress.compactMap { $0["fraction"]?.doubleValue }
      #expect(fractions.count >= 3, "\(r.stdout)")
      #expect(fractions.first == 0, "\(r.stdout)")
      #expect(fractions == fractions.sorted(), "\(r.stdout)")
      #expect(abs((fractions.dropFirst().first ?? 0) - 1.0 / 3) < 0.001, "\(r.stdout)")
    }
  }

  @Test func anInterruptedForeachOfUploadsResumesWithoutRepeatingAnItem() async throws {
    // Eight non-idempotent uploads (no Idempotency-Key), three at a time. Item 4's file does not
    // exist on the first run, so that item fails before sending anything: no new item starts once
    // its failure is seen, the ones in flight finish and are journaled. Failures are seen in the
    // order tasks end, so under load items after 4 may have started (even all of them): the bound
    // is 0-3 at least and never item 4. The resume must upload only what is left.
    let dir = TestScratch.root.appendingPathComponent("apx-foreach-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let files = (0..<8).map { "\(dir)/books-\($0).csv" }
    func csv(_ i: Int) -> String { "title\n" + (0...i).map { "Book \(i)-\($0)" }.joined(separator: "\n") + "\n" }
    for (i, file) in files.enumerated() where i != 4 {
      try csv(i).write(toFile: file, atomically: true, encoding: .utf8)
    }
    let path = try temporaryFile(
      "many-imports.json",
      """
      {
        "name": "many-imports",
        "inputs": { "files": { "type": "json", "required": true } },
        "steps": [
          { "id": "uploads", "call": "books.imports.create",
            "foreach": { "over": "${input.files}", "as": "csv", "concurrency": 3 },
            "with": { "csv": "${csv}", "row_delay_ms": 0 }, "expect": { "status": 202 } }
        ],
        "output": { "rows": "${steps.uploads[].body.total_rows}", "jobs": "${steps.uploads[].body.job_id}" }
      }
      """)
    let state = Self.stateDirectory()
    let list = JSONValue.array(files.map { .string($0) }).compactJSON
    try await withDemoServer { server in
      let first = try await APXProcess.run(
        ["run", path, "files:=\(list)", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(first.status != 0)
      #expect(first.stderr.contains("books-4.csv"), "\(first.stderr)")
      #expect(first.stderr.contains("then resume with: apx run"), "a failed run says how to resume: \(first.stderr)")
      #expect(!first.stderr.contains("step \"uploads\" (books.imports.create): step"), "one prefix: \(first.stderr)")
      let uploadedFirst = server.stats.importsCreated
      #expect(uploadedFirst >= 4 && uploadedFirst <= 7, "items 0-3 and those in flight: \(uploadedFirst)")
      let runs = state + "/runs"
      let journal = try String(
        contentsOfFile: runs + "/" + (try FileManager.default.contentsOfDirectory(atPath: runs)[0]), encoding: .utf8)
      #expect(journal.components(separatedBy: "\"type\":\"item\"").count - 1 == uploadedFirst, "\(journal)")

      try csv(4).write(toFile: files[4], atomically: true, encoding: .utf8)
      let second = try await APXProcess.run(
        ["run", path, "--resume", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(second.status == 0, "\(second.stderr)")
      #expect(server.stats.importsCreated == 8, "each item uploaded exactly once")
      #expect(server.stats.idempotentReplays == 0)
      #expect(
        second.stderr.contains("\(8 - uploadedFirst) call\(uploadedFirst == 7 ? "" : "s")")
          && second.stderr.contains("\(uploadedFirst) done before"),
        "\(second.stderr)")
      let output = try Self.json(second.stdout)
      #expect(
        output["rows"] == .array((1...8).map { .int($0) }), "every item's result, restored or new: \(second.stdout)")
      #expect(Set(output["jobs"]?.arrayValue ?? []).count == 8)
    }
  }

  @Test func anIfPerItemSkipsItemsInTheStatusLineEventsAndJUnit() async throws {
    let path = try temporaryFile(
      "some.json",
      """
      {
        "name": "some",
        "steps": [
          { "id": "caps", "call": "books.capabilities.get", "if": "${item.on}",
            "foreach": { "over": [{ "on": true }, { "on": false }, { "on": true }, { "on": false }] },
            "expect": { "status": 200 } }
        ]
      }
      """)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--events", "--test", "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.requestsByRoute["GET /api/v2/capabilities"] == 2)
      #expect(r.stderr.contains("step caps (books.capabilities.get): ok, 2 calls, 2 items skipped"), "\(r.stderr)")
      #expect(r.stderr.contains("2 passed, 0 failed"), "\(r.stderr)")
      let values = try r.stdout.split(separator: "\n").map { try Self.json(String($0)) }
      let skipped = values.filter { $0["type"] == .string("item_result") && $0["result"]?["skipped"] == .bool(true) }
      #expect(skipped.compactMap { $0["index"]?.intValue } == [1, 3], "\(r.stdout)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("name=\"caps: 2 of 4 items skipped (if)\""), "\(xml)")
      #expect(xml.contains("skipped=\"1\""), "\(xml)")
    }
  }
}
