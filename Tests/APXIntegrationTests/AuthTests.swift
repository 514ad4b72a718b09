import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// Auth end to end: the real `apx` binary against the demo server with auth
/// required. Secrets must never reach stdout or stderr (except `auth token`).
@Suite struct AuthTests {
  /// A private state folder, shared by the runs of one test.
  static func stateDirectory() -> String {
    TestScratch.root.appendingPathComponent("apx-auth-state-\(UUID().uuidString)").path
  }

  static func tokenFile(_ state: String) -> String { state + "/tokens/books@demo.json" }

  /// The stored token file as JSON.
  static func stored(_ state: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: tokenFile(state)))
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
  }

  static func json(_ text: String) -> [String: Any] {
    ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]) ?? [:]
  }

  @Test func verboseOutputNeverShowsTheTokenTheSecretOrTheAPIKey() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let env = ["APX_STATE_DIR": state, "BOOKS_CLIENT_SECRET": "demo-secret", "GIFS_API_KEY": "demo-key"]
      let call = try await APXProcess.run(
        ["call", "books.capabilities.get", "-v", "--base-url", server.httpBaseURL], environment: env)
      #expect(call.status == 0, "\(call.stderr)")
      #expect(call.stderr.contains("Authorization: Bearer ***"))
      // -v shows the token request too, and the headers the client adds, as they are sent.
      #expect(
        call.stderr.contains("* OAuth2 token request\n> POST \(server.httpBaseURL)/oauth/token"), "\(call.stderr)")
      #expect(call.stderr.contains("> User-Agent: apx/"), "\(call.stderr)")
      #expect(call.stderr.contains("> Accept-Encoding: deflate, gzip"), "\(call.stderr)")
      let gifs = try await APXProcess.run(
        ["call", "gifs.trending", "per_page=1", "-v", "--base-url", server.httpBaseURL], environment: env)
      #expect(gifs.status == 0, "\(gifs.stderr)")
      #expect(gifs.stderr.contains("/api/v1/***/gifs/trending"))

      let token = try await APXProcess.run(
        ["auth", "token", "books", "--base-url", server.httpBaseURL], environment: env)
      let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(token.status == 0 && accessToken.count >= 16)
      let refreshToken = try #require(Self.stored(state)["refresh_token"] as? String)
      for secret in [accessToken, refreshToken, "demo-secret", "demo-key"] {
        #expect(!call.combined.contains(secret), "leaked \(secret.prefix(4))… in the books call")
        #expect(!gifs.combined.contains(secret), "leaked \(secret.prefix(4))… in the gifs call")
      }
      #expect(server.stats.tokenRequests == 1)
    }
  }

  @Test func loginStatusTokenAndLogout() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let env = ["APX_STATE_DIR": state]
      let base = ["--base-url", server.httpBaseURL]
      let login = try await APXProcess.run(["auth", "login", "books"] + base, environment: env)
      #expect(login.status == 0, "\(login.stderr)")
      let summary = Self.json(login.stdout)
      #expect(summary["api"] as? String == "books")
      #expect(summary["environment"] as? String == "demo")
      #expect(summary["logged_in"] as? Bool == true)
      #expect(summary["has_refresh_token"] as? Bool == true)

      let attributes = try FileManager.default.attributesOfItem(atPath: Self.tokenFile(state))
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      let accessToken = try #require(Self.stored(state)["access_token"] as? String)
      #expect(!login.combined.contains(accessToken))

      let status = try await APXProcess.run(["auth", "status", "books"] + base, environment: env)
      let statusJSON = Self.json(status.stdout)
      #expect(statusJSON["type"] as? String == "oauth2_client_credentials")
      #expect(statusJSON["client"] as? String == "demo-client")
      #expect(((statusJSON["expires_in"] as? Int) ?? 0) > 3000)
      #expect(!status.combined.contains(accessToken))
      let all = try await APXProcess.run(["auth", "status"], environment: env)
      #expect(all.stdout.contains("\"books\"") && !all.combined.contains(accessToken))

      let token = try await APXProcess.run(["auth", "token", "books"] + base, environment: env)
      #expect(token.stdout == accessToken + "\n")
      // The stored token is used by calls: no second token request.
      let call = try await APXProcess.run(["call", "books.capabilities.get"] + base, environment: env)
      #expect(call.status == 0)
      #expect(server.stats.tokenRequests == 1)

      let logout = try await APXProcess.run(["auth", "logout", "books"] + base, environment: env)
      #expect(Self.json(logout.stdout)["logged_out"] as? Bool == true)
      #expect(!FileManager.default.fileExists(atPath: Self.tokenFile(state)))
      let after = try await APXProcess.run(["auth", "status", "books"] + base, environment: env)
      #expect(Self.json(after.stdout)["logged_in"] as? Bool == false)
    }
  }

  @Test func aBadClientSecretExitsWithTheAuthCodeAndSaysWhatToCheck() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let secret = "not-the-secret-31337"
      let result = try await APXProcess.run(
        ["call", "books.capabilities.get", "-v", "--base-url", server.httpBaseURL],
        environment: ["BOOKS_CLIENT_SECRET": secret])
      #expect(result.status == 8)
      #expect(result.stderr.contains("\"books\""))
      #expect(result.stderr.contains("BOOKS_CLIENT_SECRET"))
      #expect(result.stderr.contains("invalid_client"))
      #expect(!result.combined.contains(secret))
      #expect(result.stdout.isEmpty)
    }
  }

  @Test func aStaleStoredTokenIsRefreshedSilently() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let env = ["APX_STATE_DIR": state]
      let base = ["--base-url", server.httpBaseURL]
      #expect(try await APXProcess.run(["auth", "login", "books"] + base, environment: env).status == 0)
      // Make the stored token look expired, as if the last run was an hour ago.
      var stored = try Self.stored(state)
      let oldToken = stored["access_token"] as? String
      stored["expires_at"] = Date().timeIntervalSince1970 - 10
      try JSONSerialization.data(withJSONObject: stored).write(to: URL(fileURLWithPath: Self.tokenFile(state)))

      let call = try await APXProcess.run(["call", "books.capabilities.get"] + base, environment: env)
      #expect(call.status == 0)
      #expect(call.stderr.isEmpty)
      #expect(server.stats.tokenRequests == 2)
      #expect(try Self.stored(state)["access_token"] as? String != oldToken)
    }
  }

  @Test func statusSaysLoggedInOnlyWhenAuthTokenWouldPrintTheStoredToken() async throws {
    let state = Self.stateDirectory()
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let base = ["--base-url", server.httpBaseURL]
      #expect(
        try await APXProcess.run(["auth", "login", "books"] + base, environment: ["APX_STATE_DIR": state]).status == 0)
      // Another client secret: the stored token belongs to other settings, and the server refuses this one.
      let env = ["APX_STATE_DIR": state, "BOOKS_CLIENT_SECRET": "not-the-secret"]
      let status = try await APXProcess.run(["auth", "status", "books"] + base, environment: env)
      let token = try await APXProcess.run(["auth", "token", "books"] + base, environment: env)
      #expect(token.status == 8, "\(token.stderr)")
      #expect(Self.json(status.stdout)["logged_in"] as? Bool == false, "\(status.stdout)")
      #expect((Self.json(status.stdout)["reason"] as? String)?.contains("other auth settings") == true)
      // With the settings it was stored with, both agree the other way.
      let again = try await APXProcess.run(["auth", "status", "books"] + base, environment: ["APX_STATE_DIR": state])
      #expect(Self.json(again.stdout)["logged_in"] as? Bool == true, "\(again.stdout)")
    }
  }

  @Test func aTokenFromStdinIsUsedAndNeverShown() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let base = ["--base-url", server.httpBaseURL]
      let token = try await APXProcess.run(["auth", "token", "books"] + base)
      let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(token.status == 0 && !accessToken.isEmpty)

      let call = try await APXProcess.run(
        ["call", "books.capabilities.get", "--token-stdin", "-v"] + base, stdin: Data(token.stdout.utf8))
      #expect(call.status == 0, "\(call.stderr)")
      #expect(!call.combined.contains(accessToken))
      // The piped token replaces the registry's auth: no token request of its own.
      #expect(server.stats.tokenRequests == 1)

      let bogus = try await APXProcess.run(
        ["call", "books.capabilities.get", "--token-stdin"] + base, stdin: Data("bogus-token-value\n".utf8))
      #expect(bogus.status == 4)
      #expect(!bogus.combined.contains("bogus-token-value"))
    }
  }
}
