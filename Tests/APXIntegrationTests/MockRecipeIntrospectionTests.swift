import APXCore
import Foundation
import Testing

/// A recipe run with `--mock` asserts on what the mock received: the introspection routes
/// are endpoints like any other once the registry declares them.
@Suite("apx run --mock: introspection in a recipe", .timeLimit(.minutes(5)))
struct MockRecipeIntrospectionTests {
  @Test func aRecipeResetsTheMockAndChecksTheRequestsItReceived() async throws {
    let file = try temporaryFile(
      "notes.json",
      #"""
      {
        "api": "notes",
        "environments": {"prod": {"base_url": "https://notes.example.com/api/v1"}},
        "endpoints": {
          "notes.create": {
            "kind": "rest", "method": "POST", "path": "/notes",
            "params": {"title": {"in": "body", "type": "string", "required": true}},
            "responses": {"201": {"content_type": "application/json", "examples": {"made": {"id": 1}}}}
          },
          "mock.requests": {"kind": "rest", "path": "/__apx/requests"},
          "mock.reset": {"kind": "rest", "method": "POST", "path": "/__apx/reset"}
        }
      }
      """#)
    let registry = URL(fileURLWithPath: file).deletingLastPathComponent().path
    let recipe = try temporaryFile(
      "notes-check.json",
      #"""
      {"name": "notes-check", "steps": [
        {"id": "reset", "call": "notes.mock.reset", "expect": {".status": 204}},
        {"id": "create", "call": "notes.notes.create", "with": {"title": "first"}, "expect": {".status": 201}},
        {"id": "log", "call": "notes.mock.requests",
         "expect": {".body[0].method": "POST", ".body[0].path": "/notes", ".body[0].body.title": "first",
                    ".body[0].status": 201},
         "capture": {"second": ".body[1]"}}
      ], "output": {"second": "${steps.log.second}"}}
      """#)
    let r = try await APXProcess.run(["run", recipe, "--registry", registry, "--mock"])
    #expect(r.status == 0, "\(r.stderr)")
    // The reset emptied the log: the create is the only request in it.
    #expect(try JSONParser.parse(r.stdout) == .object([JSONMember("second", .null)]), "\(r.stdout)")
  }
}
