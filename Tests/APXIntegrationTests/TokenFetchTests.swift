import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// End to end: the token request a standard endpoint accepts, a
/// stored token keyed by what obtained it, and a hanging `token_command` bound by `--timeout`.
@Suite struct TokenFetchTests {
  static func stateDirectory() -> String {
    TestScratch.root.appendingPathComponent("apx-token-state-\(UUID().uuidString)").path
  }

  @Test func aChangedSecretIsNotCoveredByTheStoredToken() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let base = ["call", "books.capabilities.get", "--base-url", server.httpBaseURL]
      let first = try await APXProcess.run(base, environment: ["APX_STATE_DIR": state])
      #expect(first.status == 0, "\(first.stderr)")
      let wrong = try await APXProcess.run(
        base, environment: ["APX_STATE_DIR": state, "BOOKS_CLIENT_SECRET": "wrong-secret-4711"])
      #expect(wrong.status == 8, "the stored token answered for a wrong secret: \(wrong.stderr)")
      #expect(!wrong.combined.contains("wrong-secret-4711"))
      let file = try String(contentsOfFile: state + "/tokens/books@demo.json", encoding: .utf8)
      #expect(!file.contains("demo-secret"))
    }
  }

  @Test func aRefusedTokenRequestNamesTheTokenEndpointWithItsPath() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let registry = try TestRegistry.make(
        """
        {"api": "tok", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "auth": {"type": "oauth2_client_credentials", "token_url": "/oauth/nowhere",
                  "client_id": "demo-client", "client_secret": "demo-secret"},
         "endpoints": {"caps": {"kind": "rest", "path": "/api/v2/capabilities"}}}
        """)
      let r = try await APXProcess.run(["call", "tok.caps", "--registry", registry])
      #expect(r.status == 8, "\(r.stderr)")
      #expect(r.stderr.contains("\(server.httpBaseURL)/oauth/nowhere"), "\(r.stderr)")
    }
  }

  @Test func aHangingTokenCommandIsStoppedAtTheTimeout() async throws {
    let script = try temporaryFile("hang.sh", "#!/bin/sh\ntrap '' TERM\nexec sleep 30\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
    let registry = try TestRegistry.make(
      """
      {"api": "cmd", "environments": {"demo": {"base_url": "http://127.0.0.1:9"}},
       "auth": {"type": "token_command", "command": ["\(script)"]},
       "endpoints": {"caps": {"kind": "rest", "path": "/c"}}}
      """)
    let r = try await APXProcess.run(["call", "cmd.caps", "--registry", registry, "--timeout", "1"], timeout: 25)
    #expect(r.status == 7, "\(r.stderr)")
    #expect(r.stderr.contains("did not finish within 1s"), "\(r.stderr)")
    #expect(!r.stderr.contains("printed no token"), "\(r.stderr)")
  }

  /// A token that cannot go into a header is an auth failure (exit 8), not a usage error.
  @Test func aTokenWithAControlCharacterIsAnAuthFailure() async throws {
    try await withDemoServer { server in
      let script = try temporaryFile("esc.sh", "#!/bin/sh\nprintf 'tok-\\033[31m-secret-91\\n'\n")
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
      let registry = try TestRegistry.make(
        """
        {"api": "cmd", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "auth": {"type": "token_command", "command": ["\(script)"]},
         "endpoints": {"caps": {"kind": "rest", "path": "/api/v2/capabilities"}}}
        """)
      let r = try await APXProcess.run(
        ["call", "cmd.caps", "--registry", registry], environment: ["APX_STATE_DIR": Self.stateDirectory()])
      #expect(r.status == 8, "\(r.stderr)")
      #expect(r.stderr.contains("U+001B"), "\(r.stderr)")
      #expect(!r.stderr.contains("secret-91"), "\(r.stderr)")
    }
  }
}
