import APXDemoServer
import Foundation
import Testing

/// An operation that answers JSON or events depending on a request field, imported and
/// called with the real binary: the same endpoint prints the JSON answer, or follows the
/// event stream as SSE (the endpoint's `Accept` lists both, as the demo, like strict SSE
/// servers, answers 406 otherwise).
@Suite("apx import: JSON or events depending on a request field")
struct ImportJSONOrEventsTests {
  @Test func theAnswersContentTypeDecides() async throws {
    try await withDemoServer { server in
      let document = """
        {"openapi": "3.1.0", "info": {"title": "Ticks", "version": "1"},
         "servers": [{"url": "\(server.httpBaseURL)/_demo"}],
         "paths": {"/ticks": {"get": {"operationId": "ticks",
           "parameters": [{"name": "n", "in": "query", "schema": {"type": "integer"}},
             {"name": "stream", "in": "query", "schema": {"type": "boolean"}}],
           "responses": {"200": {"description": "JSON, or events with stream=true", "content": {
             "application/json": {"schema": {"type": "object"}},
             "text/event-stream": {"schema": {"type": "string"}}}}}}}}}
        """
      let source = try temporaryFile("ticks.json", document)
      let folder = (source as NSString).deletingLastPathComponent
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let registry = folder + "/Endpoints"
      let imported = try await APXProcess.run(["import", "openapi", source, "--out", registry])
      #expect(imported.status == 0, "\(imported.stderr)")
      let env = ["APX_REGISTRY": registry]

      let json = try await APXProcess.run(["call", "ticks.ticks", "n:=2"], environment: env)
      #expect(json.status == 0, "\(json.stderr)")
      #expect(json.stdout.contains(#""ticks":[{"n":1},{"n":2}]"#), "\(json.stdout)")

      let events = try await APXProcess.run(
        ["call", "ticks.ticks", "n:=2", "stream:=true", "-o", "ndjson"], environment: env, timeout: 60)
      #expect(events.status == 0, "\(events.stderr)")
      let lines = events.stdout.split(separator: "\n").map(String.init)
      let names = lines.compactMap {
        (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
      }
      #expect(names.prefix(2) == ["tick", "tick"], "\(events.stdout)")
      #expect(lines.first?.contains(#""data":{"n":1}"#) == true, "\(events.stdout)")
    }
  }
}
