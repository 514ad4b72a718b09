import APXDemoServer
import Foundation
import Testing

/// A header that cannot be sent is a usage error (exit 2) from the command
/// line or the environment, a definition error (exit 3, with file:line:column) in a registry or
/// recipe, found before anything is sent and never retried.
@Suite struct HeaderSyntaxCLITests {
  @Test func aBadHeaderOnTheCommandLineExits2BeforeSending() async throws {
    try await withDemoServer { server in
      for header in ["X-A: b\r\nX-Injected: 1", "Bad Name: x", "X-Nul: a\u{1}b"] {
        let r = try await APXProcess.run(
          ["call", "books.capabilities.get", "--base-url", server.httpBaseURL, "-H", header])
        #expect(r.status == 2, "\(header.debugDescription): \(r.stderr)")
        #expect(r.stderr.contains("header"), "\(r.stderr)")
      }
      #expect(server.stats.requestsByRoute.isEmpty, "\(server.stats.requestsByRoute)")
    }
  }

  @Test func aHeaderFilledFromTheEnvironmentIsCheckedBeforeSending() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "env", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "headers": {"X-Tenant": "${env:T_TENANT}"},
         "endpoints": {"caps": {"kind": "rest", "path": "/api/v2/capabilities"}}}
        """)
      let r = try await APXProcess.run(
        ["call", "env.caps", "--registry", registry], environment: ["T_TENANT": "a\nX-Injected: 1"])
      #expect(r.status == 2, "\(r.stderr)")
      #expect(r.stderr.contains("X-Tenant") && r.stderr.contains("line feed"), "\(r.stderr)")
      #expect(!r.stderr.contains("attempt"), "retried: \(r.stderr)")
      #expect(server.stats.requestsByRoute.isEmpty, "\(server.stats.requestsByRoute)")
    }
  }

  @Test func aBadHeaderInARegistryOrRecipeExits3AndValidateLocatesIt() async throws {
    let registry = try TestRegistry.make(
      """
      {"api": "hdr", "environments": {"demo": {"base_url": "http://127.0.0.1:9"}},
       "headers": {"X Tenant": "t"},
       "endpoints": {"caps": {"kind": "rest", "path": "/c"}}}
      """)
    let call = try await APXProcess.run(["call", "hdr.caps", "--registry", registry])
    #expect(call.status == 3, "\(call.stderr)")
    let validate = try await APXProcess.run(["validate", registry + "/hdr.json"])
    #expect(validate.status == 3)
    #expect(validate.combined.contains("hdr.json:2:"), "\(validate.combined)")
    #expect(validate.combined.contains("\"X Tenant\" contains a space"), "\(validate.combined)")

    let recipe = try temporaryFile(
      "bad-header.json",
      """
      {"name": "bad-header",
       "steps": [{"id": "caps", "call": "books.capabilities.get",
                  "headers": {"X-Ok": "1", "X-Bad": "a\\r\\nb"}}]}
      """)
    let run = try await APXProcess.run(["run", recipe])
    #expect(run.status == 3, "\(run.stderr)")
    #expect(run.stderr.contains("bad-header.json:3:"), "\(run.stderr)")
  }
}
