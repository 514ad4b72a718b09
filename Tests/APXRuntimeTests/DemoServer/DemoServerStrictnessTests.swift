import APXDemoServer
import Foundation
import NIOHTTP1
import Testing

/// The demo refuses what real servers refuse, so a client bug fails a test.
@Suite("Demo server: as strict as real servers")
struct DemoServerStrictnessTests {
  @Test func anEventStreamNeedsAnAcceptThatAdmitsIt() async throws {
    try await DemoHTTPHarness.run { demo in
      let created = try await demo.createImport("title\nA\n", query: "?row_delay_ms=1")
      let id = try #require(created.json["job_id"] as? String)
      let path = "/api/v2/imports/\(id)/stream"
      for accept in [nil, "application/json", "text/event-stream;q=0"] {
        let reply = try await demo.send(.GET, path, headers: accept.map { [("Accept", $0)] } ?? [])
        #expect(reply.status == 406, "Accept \(accept ?? "none")")
        #expect(reply.json["error"] as? String == "not_acceptable" || reply.body.contains("not_acceptable"))
      }
      for accept in ["text/event-stream", "application/json, text/event-stream;q=0.5", "*/*"] {
        let reply = try await demo.send(.GET, path, headers: [("Accept", accept)])
        #expect(reply.status == 200, "Accept \(accept)")
      }
    }
  }

  @Test func aWrongMethodIs405WithAllow() async throws {
    try await DemoHTTPHarness.run { demo in
      let cases: [(HTTPMethod, String, String)] = [
        (.DELETE, "/api/v2/capabilities", "GET"), (.GET, "/oauth/token", "POST"),
        (.PUT, "/api/v2/imports", "POST"), (.POST, "/api/v2/imports/imp_1", "GET"),
      ]
      for (method, path, allow) in cases {
        let reply = try await demo.send(method, path)
        #expect(reply.status == 405, "\(method) \(path)")
        #expect(reply.headers.first(name: "Allow") == allow, "\(method) \(path)")
      }
      let unknown = try await demo.send(.GET, "/api/v2/nothing-here")
      #expect(unknown.status == 404)
    }
  }

  @Test func redirectsOfEveryKindCanBeInjected() async throws {
    try await DemoHTTPHarness.run { demo in
      // The harness's client follows redirects: each lands on the header echo.
      for status in [301, 302, 303, 307, 308] {
        let reply = try await demo.send(
          .GET, "/_demo/redirect?status=\(status)&to=%2F_demo%2Fheaders", headers: [("X-Probe", "p")])
        #expect(reply.status == 200, "\(status)")
        #expect(reply.json["x-probe"] as? String == "p", "\(status): \(reply.body)")
      }
      let notARedirect = try await demo.send(.GET, "/_demo/redirect?status=304&to=%2Fx")
      #expect(notARedirect.status == 400)
      #expect(demo.server.stats.requestsByRoute.keys.contains { $0.contains("_demo/redirect") })
    }
  }
}
