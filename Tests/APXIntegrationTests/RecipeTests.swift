import APXCore
import APXDemoServer
import Foundation
import Testing

/// `apx run` and `apx validate` on recipes, run as the real binary against the demo backend.
@Suite("apx run (recipes)")
struct RecipeTests {
  static let recipes = APXProcess.packageRoot.appendingPathComponent("Recipes")

  static func recipe(_ name: String) -> String { recipes.appendingPathComponent(name).path }

  /// A fresh state directory, so a test sees only its own journals.
  static func stateDirectory() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("apx-recipe-state-\(UUID().uuidString)").path
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

  @Test func importCSVWithTheEmbeddedDemo() async throws {
    let r = try await APXProcess.run(
      ["run", Self.recipe("import-csv.json"), "--demo"], environment: ["APX_STATE_DIR": Self.stateDirectory()])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.json(r.stdout)["status"] == .string("complete"))
  }

  @Test func importCSVFallsBackToPollingWhenTheStreamIsRefused() async throws {
    // refuse_stream is a query parameter of imports.create: run a copy of the recipe that sets it.
    let text = try String(contentsOfFile: Self.recipe("import-csv.json"), encoding: .utf8)
      .replacingOccurrences(of: "\"row_delay_ms\": \"${input.row_delay_ms}\"", with: "\"row_delay_ms\": \"${input.row_delay_ms}\", \"refuse_stream\": true")
      .replacingOccurrences(of: "\"default\": \"data/books.csv\"", with: "\"default\": \"\(Self.recipes.path)/data/books.csv\"")
    let path = try temporaryFile("import-poll.json", text)
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": Self.stateDirectory()], timeout: 120)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try Self.json(r.stdout)["status"] == .string("complete"))
      #expect(server.stats.streamsRefused >= 1)
      #expect(server.stats.requestsByRoute["GET /api/v2/imports/{id}", default: 0] >= 2)
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
        ["run", path, "csv=@\(csv)", "--base-url", server.httpBaseURL], environment: ["APX_STATE_DIR": Self.stateDirectory()])
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
}
