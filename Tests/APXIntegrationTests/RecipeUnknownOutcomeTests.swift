import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx run --resume` after a run whose journal recorded a call as about to be sent and
/// nothing after it (a full disk, a crash): a call that is not safe to repeat is not sent
/// again (exit 9), a GET is.
@Suite("apx run --resume: a step whose outcome is unknown")
struct RecipeUnknownOutcomeTests {
  /// Writes a CSV and a recipe with one step, `call` with `with`, and returns the recipe's path.
  static func recipe(call: String, with: String) throws -> String {
    let csv = try temporaryFile("books.csv", "title\nBook 1\n")
    return try temporaryFile(
      "unknown.json",
      """
      { "name": "unknown",
        "steps": [ { "id": "first", "call": "\(call)", "with": \(with.replacingOccurrences(of: "CSV", with: csv)) } ] }
      """)
  }

  /// A state folder holding one run of `recipe` whose journal ends with `tail`.
  static func state(recipe: String, tail: String) throws -> String {
    let state = TestScratch.root.appendingPathComponent("apx-unknown-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: state + "/runs", withIntermediateDirectories: true)
    let path = URL(fileURLWithPath: recipe).resolvingSymlinksInPath().path
    let start = JSONValue.object([
      JSONMember("type", .string("start")), JSONMember("run_id", .string("20260101T000000-unknwn")),
      JSONMember("recipe", .string(path)), JSONMember("name", .string("unknown")),
      JSONMember("inputs", .object([])), JSONMember("secret_inputs", .array([])),
      JSONMember("resumed", .bool(false)), JSONMember("at", .string("2026-01-01T00:00:00Z")),
    ]).compactJSON
    try (start + "\n" + tail).write(
      toFile: state + "/runs/20260101T000000-unknwn.jsonl", atomically: true, encoding: .utf8)
    return state
  }

  static let post = (call: "books.imports.create", with: #"{ "csv": "CSV", "row_delay_ms": 0 }"#)
  static let started = #"{"type":"started","step":"first","request":"POST /api/v2/imports"}"# + "\n"

  @Test(arguments: [
    ("a started POST", started),
    ("a started POST and a cut-short line", started + #"{"type":"step","id":"fi"#),
    ("a cut-short last line", #"{"type":"started","step":"fir"#),
  ])
  func aPOSTWhoseOutcomeIsUnknownIsNotSentAgain(_ what: String, _ tail: String) async throws {
    let recipe = try Self.recipe(call: Self.post.call, with: Self.post.with)
    let state = try Self.state(recipe: recipe, tail: tail)
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", recipe, "--resume", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(r.status == 9, "\(what): \(r.stderr)")
      #expect(server.stats.importsCreated == 0, "\(what): nothing is sent")
      #expect(r.stderr.contains("step \"first\" (books.imports.create)"), "\(r.stderr)")
      #expect(r.stderr.contains("check on the server whether it took effect"), "\(r.stderr)")
      // Refused again: the refusal leaves the journal as it found it.
      let again = try await APXProcess.run(
        ["run", recipe, "--resume", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(again.status == 9, "\(what): \(again.stderr)")
      #expect(server.stats.importsCreated == 0)
    }
  }

  @Test func aGETWhoseOutcomeIsUnknownIsSentAgain() async throws {
    let recipe = try Self.recipe(call: "books.capabilities.get", with: "{}")
    let state = try Self.state(
      recipe: recipe, tail: #"{"type":"started","step":"first","request":"GET /api/v2/capabilities"}"# + "\n{\"ty")
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", recipe, "--resume", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(server.stats.requestsByRoute.keys.contains { $0.hasPrefix("GET ") && $0.contains("capabilities") })
    }
  }

  /// A POST is journaled as started before it goes out, and its step's line settles it.
  @Test func aPOSTIsJournaledAsStartedBeforeItsAnswer() async throws {
    let recipe = try Self.recipe(call: Self.post.call, with: Self.post.with)
    let state = TestScratch.root.appendingPathComponent("apx-unknown-\(UUID().uuidString)").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", recipe, "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": state])
      #expect(r.status == 0, "\(r.stderr)")
      let runs = state + "/runs"
      let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: runs).first { $0.hasSuffix(".jsonl") })
      let lines = try String(contentsOfFile: runs + "/" + name, encoding: .utf8).split(separator: "\n")
      let types = lines.map { (try? JSONParser.parse(Array($0.utf8)))?["type"]?.stringValue ?? "" }
      #expect(types == ["start", "started", "step", "end"], "\(lines)")
      #expect(lines[1].contains("POST /api/v2/imports"), "\(lines)")
    }
  }
}

/// `--resume` with `--demo` is refused before anything is sent: each `--demo` starts a new backend.
@Suite("apx run --resume --demo")
struct RecipeResumeDemoTests {
  @Test func resumeWithDemoIsRefused() async throws {
    // An unfinished run of the recipe, with nothing done: only the refusal stops the resume.
    let recipe = try RecipeUnknownOutcomeTests.recipe(call: "books.capabilities.get", with: "{}")
    let state = try RecipeUnknownOutcomeTests.state(recipe: recipe, tail: "")
    let before = try FileManager.default.contentsOfFile(state)
    let r = try await APXProcess.run(["run", recipe, "--resume", "--demo"], environment: ["APX_STATE_DIR": state])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("apx demo") && r.stderr.contains("another terminal"), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfFile(state) == before, "the journal is untouched")
  }
}

extension FileManager {
  /// The text of the one journal in `state`/runs.
  fileprivate func contentsOfFile(_ state: String) throws -> String {
    let runs = state + "/runs"
    return try String(contentsOfFile: runs + "/" + contentsOfDirectory(atPath: runs)[0], encoding: .utf8)
  }
}
