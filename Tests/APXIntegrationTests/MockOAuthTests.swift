import APXCore
import APXTestSupport
import Foundation
import Testing

/// `apx mock`'s OAuth2 token endpoint: grants, client authentication in form, token expiry
/// (`--token-lifetime`) answered with `invalid_token` and refreshed by apx, and `apx run
/// --mock` taking its tokens from the mock instead of the real authorization server.
@Suite("apx mock OAuth2", .timeLimit(.minutes(5)))
struct MockOAuthTests {
  /// `vault` takes tokens from a relative token URL (so `--base-url` reaches the mock), its
  /// `basic` endpoint from an absolute one with `client_auth: basic`.
  static func registry() throws -> String {
    try temporaryFile(
      "vault.json",
      #"""
      {
        "api": "vault",
        "environments": {"prod": {"base_url": "https://vault.example.com/api"}},
        "auth": {"type": "oauth2_client_credentials", "token_url": "/oauth/token",
          "client_id": "${env:VAULT_ID}", "client_secret": "${env:VAULT_SECRET}"},
        "endpoints": {
          "secret": {"kind": "rest", "path": "/secret",
            "responses": {"200": {"content_type": "application/json", "examples": {"ok": {"secret": 42}}}}},
          "basic": {"kind": "rest", "path": "/basic",
            "auth": {"type": "oauth2_client_credentials", "token_url": "https://auth.invalid/connect/token",
              "client_id": "${env:VAULT_ID}", "client_secret": "${env:VAULT_SECRET}", "client_auth": "basic"},
            "responses": {"200": {"content_type": "application/json", "examples": {"ok": {"basic": true}}}}},
          "feed": {"kind": "websocket", "path": "/ws/feed",
            "auth": {"type": "oauth2_client_credentials", "token_url": "/oauth/token", "in": "subprotocol",
              "prefix": "vault.", "client_id": "${env:VAULT_ID}", "client_secret": "${env:VAULT_SECRET}"},
            "server_messages": {"examples": [{"n": 1}]}}
        }
      }
      """#)
  }

  static let credentials = ["VAULT_ID": "vault-client", "VAULT_SECRET": "s3cr3t-value"]
  static let form = ["Content-Type": "application/x-www-form-urlencoded"]

  @Test func theTokenEndpointGrantsRefreshesAndRefusesAClientWithoutCredentials() async throws {
    try await MockProcess.with(["vault", "--registry", try Self.registry(), "--token-lifetime", "120"]) { mock in
      let port = try mock.port()
      let granted = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token", headers: Self.form,
        body: "grant_type=client_credentials&client_id=c&client_secret=s3cr3t-value")
      #expect(granted.status == 200, "\(granted.text)")
      #expect(granted.json?["token_type"] == .string("Bearer"))
      #expect(granted.json?["expires_in"] == .int(120))
      let refresh = try #require(granted.json?["refresh_token"]?.stringValue)
      #expect(granted.json?["access_token"]?.stringValue?.isEmpty == false)
      let refreshed = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token",
        headers: Self.form.merging(["X-Apx-Mock-Fault": "token-lifetime=7"]) { a, _ in a },
        body: "grant_type=refresh_token&refresh_token=\(refresh)&client_id=c&client_secret=x")
      #expect(refreshed.status == 200, "\(refreshed.text)")
      #expect(refreshed.json?["expires_in"] == .int(7))
      let unknown = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token", headers: Self.form,
        body: "grant_type=refresh_token&refresh_token=nope&client_id=c&client_secret=x")
      #expect(unknown.status == 400 && unknown.json?["error"] == .string("invalid_grant"))
      let noClient = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token", headers: Self.form, body: "grant_type=client_credentials")
      #expect(noClient.status == 401 && noClient.json?["error"] == .string("invalid_client"))
      // The endpoint with `client_auth: basic` is served at its absolute token URL's path.
      let basicInBody = try await LoopbackHTTP.request(
        port: port, "POST", "/connect/token", headers: Self.form,
        body: "grant_type=client_credentials&client_id=c&client_secret=s")
      #expect(basicInBody.status == 401 && basicInBody.json?["error"] == .string("invalid_client"))
      let basic = try await LoopbackHTTP.request(
        port: port, "POST", "/connect/token",
        headers: Self.form.merging(["Authorization": "Basic YzpzM2NyM3Q="]) { a, _ in a },
        body: "grant_type=client_credentials")
      #expect(basic.status == 200, "\(basic.text)")
      let log = try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests")
      #expect(!log.text.contains("s3cr3t-value") && log.text.contains("client_secret=***"), "\(log.text)")
      #expect(!log.text.contains(refresh), "\(log.text)")
    }
  }

  /// A token issued with `token-lifetime=0` has expired at once: a WebSocket handshake with it
  /// is closed with 1008, one with a token the mock did not issue passes in form.
  @Test func anExpiredTokenInASubprotocolIsClosedWith1008() async throws {
    try await MockProcess.with(["vault", "--registry", try Self.registry()]) { mock in
      let port = try mock.port()
      let granted = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token",
        headers: Self.form.merging(["X-Apx-Mock-Fault": "token-lifetime=0"]) { a, _ in a },
        body: "grant_type=client_credentials&client_id=c&client_secret=s")
      let token = try #require(granted.json?["access_token"]?.stringValue, "\(granted.text)")
      let url = "ws://127.0.0.1:\(port)/ws/feed"
      let expired = try await APXProcess.run(["call", url, "--subprotocol", "vault.\(token)"])
      #expect(expired.status == 8, "\(expired.stderr)")
      #expect(expired.stderr.contains("expired"), "\(expired.stderr)")
      let foreign = try await APXProcess.run(["call", url, "--subprotocol", "vault.not-from-the-mock"])
      #expect(foreign.status == 0, "\(foreign.stderr)")
      #expect(foreign.stdout.hasPrefix(#"{"n":1}"#), "\(foreign.stdout)")
    }
  }

  @Test func anExpiredTokenIsInvalidTokenAndApxRefreshesIt() async throws {
    let registry = try Self.registry()
    let state = TestScratch.root.appendingPathComponent("apx-state-\(UUID().uuidString)")
    let environment = Self.credentials.merging(["APX_STATE_DIR": state.path]) { a, _ in a }
    let run = try await MockProcess.with(["vault", "--registry", registry, "--token-lifetime", "1"]) { mock in
      let port = try mock.port()
      let call = ["call", "--registry", registry, "vault.secret", "--base-url", "http://127.0.0.1:\(port)"]
      let first = try await APXProcess.run(call, environment: environment)
      #expect(first.status == 0, "\(first.stderr)")
      // The token apx stored, and the mock's verdict on it once its second has passed.
      let file = state.appendingPathComponent("tokens/vault@prod.json")
      var stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      let token = try #require(stored["access_token"] as? String)
      var expired: LoopbackHTTP.Answer?
      for _ in 0..<200 {
        let answer = try await LoopbackHTTP.request(
          port: port, "GET", "/secret", headers: ["Authorization": "Bearer \(token)"])
        if answer.status == 401 {
          expired = answer
          break
        }
        try await Task.sleep(for: .milliseconds(50))
      }
      let refused = try #require(expired, "the token never expired")
      #expect(refused.header("www-authenticate")?.contains(#"error="invalid_token""#) == true)
      // apx believes the token still good (as after a clock skew): the 401 makes it refresh once.
      stored["expires_at"] = Date().timeIntervalSince1970 + 3600
      try JSONSerialization.data(withJSONObject: stored).write(to: file)
      let second = try await APXProcess.run(call, environment: environment)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(try JSONParser.parse(second.stdout) == .object([JSONMember("secret", .int(42))]))
      let log = try #require(try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests").json?.arrayValue)
      let tokenRequests = log.filter { $0["path"] == .string("/oauth/token") }
      #expect(tokenRequests.count == 2, "\(log)")
      #expect(tokenRequests.last?["body"]?.stringValue?.contains("grant_type=refresh_token") == true, "\(log)")
      #expect(log.contains { $0["fault"] == .string("token expired") && $0["status"] == .int(401) })
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: fault: token expired: GET /secret"), "\(stderr)")
    #expect(stderr.contains("apx mock: vault issues OAuth2 tokens at http://127.0.0.1:"), "\(stderr)")
  }

  @Test func aRecipeUnderMockTakesItsTokensFromTheMock() async throws {
    let registry = try Self.registry()
    let recipe = try temporaryFile(
      "vault-check.json",
      #"""
      {"name": "vault-check", "steps": [
        {"id": "secret", "call": "vault.secret", "expect": {".body.secret": 42}},
        {"id": "basic", "call": "vault.basic", "expect": {".body.basic": true}}
      ]}
      """#)
    let r = try await APXProcess.run(
      ["run", recipe, "--registry", registry, "--mock"], environment: Self.credentials)
    #expect(r.status == 0, "the absolute token URL is answered by the mock, not auth.invalid: \(r.stderr)")
  }
}
