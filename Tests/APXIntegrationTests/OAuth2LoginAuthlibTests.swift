import APXCore
import APXTestSupport
import Foundation
import Testing

/// A user's login against an authorization server apx did not write: Authlib's, with Flask
/// (`Tests/Fixtures/oauth/authlib_server.py`). The "browser" is a script named by `$BROWSER`
/// that follows the authorization URL to apx's loopback listener, as a browser that approves
/// would; it leaves a mark for each page it opens, so a test can tell that a call opened none.
@Suite(
  "OAuth2 user login against Authlib", .timeLimit(.minutes(5)),
  .enabled(Comment(rawValue: AuthlibProvider.missing)) { await AuthlibProvider.enabled() })
struct OAuth2LoginAuthlibTests {
  /// A scratch folder with a registry for `issuer`, a state folder and the browser script.
  struct Setup {
    let dir: String
    let issuer: String
    var environment: [String: String] {
      ["APX_REGISTRY": dir + "/reg", "APX_STATE_DIR": dir + "/state", "BROWSER": dir + "/browser.py"]
    }
    /// How many pages the browser opened.
    var pagesOpened: Int { (try? String(contentsOfFile: dir + "/opened", encoding: .utf8))?.count ?? 0 }
    var storedToken: [String: Any] {
      let path = dir + "/state/tokens/me@default.json"
      guard let data = FileManager.default.contents(atPath: path) else { return [:] }
      return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    func apx(_ arguments: [String], timeout: Double = 60) async throws -> APXResult {
      try await APXProcess.run(arguments, environment: environment, timeout: timeout)
    }

    /// The provider's log of its authorize, token, device and revoke requests.
    func log() async throws -> [[String: Any]] {
      let port = Int(issuer.split(separator: ":").last ?? "") ?? 0
      let answer = try await LoopbackHTTP.request(port: port, "GET", "/_test/log")
      return (try JSONSerialization.jsonObject(with: Data(answer.body))) as? [[String: Any]] ?? []
    }

    func post(_ path: String, form: String) async throws -> LoopbackHTTP.Answer {
      let port = Int(issuer.split(separator: ":").last ?? "") ?? 0
      return try await LoopbackHTTP.request(
        port: port, "POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: form)
    }
  }

  /// Runs the provider with `arguments` and `body` with a registry whose API `me` logs in with `auth`.
  static func with(
    _ arguments: [String] = [], auth: String = #""type": "oauth2_authorization_code""#,
    browser: String = Self.followingBrowser, _ body: @escaping @Sendable (Setup) async throws -> Void
  ) async throws {
    try await AuthlibProvider.server.run(arguments: arguments) { issuer in
      let dir = TestScratch.root.appendingPathComponent("apx-login-\(UUID().uuidString)").path
      defer { try? FileManager.default.removeItem(atPath: dir) }
      try FileManager.default.createDirectory(atPath: dir + "/reg", withIntermediateDirectories: true)
      let registry = """
        {"api": "me", "environments": {"default": {"base_url": "\(issuer)"}},
         "auth": {\(auth), "issuer": "\(issuer)", "client_id": "cli", "scopes": ["openid", "books:read", "offline_access"]},
         "endpoints": {"me": {"kind": "rest", "path": "/api/me"}}}
        """
      try registry.write(toFile: dir + "/reg/me.json", atomically: true, encoding: .utf8)
      try browser.replacingOccurrences(of: "MARKS", with: dir + "/opened")
        .write(toFile: dir + "/browser.py", atomically: true, encoding: .utf8)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/browser.py")
      try await body(Setup(dir: dir, issuer: issuer))
    }
  }

  /// Follows the authorization URL and its redirect to apx's listener, as an approving browser.
  static let followingBrowser = """
    #!/usr/bin/env python3
    import sys, urllib.request
    open("MARKS", "a").write("x")
    urllib.request.urlopen(sys.argv[1], timeout=20).read()
    """

  /// Asks for a code with a challenge of its own, then brings that code to apx's listener with
  /// apx's state: the code is bound to another verifier than the one apx holds.
  static let swappingBrowser = """
    #!/usr/bin/env python3
    import base64, hashlib, sys, urllib.parse, urllib.request
    open("MARKS", "a").write("x")
    parts = urllib.parse.urlsplit(sys.argv[1])
    query = dict(urllib.parse.parse_qsl(parts.query))
    other = base64.urlsafe_b64encode(hashlib.sha256(b"x" * 50).digest()).rstrip(b"=").decode()
    query["code_challenge"] = other
    url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    urllib.request.urlopen(url, timeout=20).read()
    """

  @Test func aBrowserLoginWithPKCEStoresTokensThatCallsUse() async throws {
    try await Self.with { setup in
      let login = try await setup.apx(["auth", "login", "me", "--timeout", "30"])
      #expect(login.status == 0, "\(login.stderr)")
      #expect(setup.pagesOpened == 1)
      let summary = try JSONParser.parse(Array(login.stdout.utf8))
      #expect(summary["type"] == .string("oauth2_authorization_code"))
      #expect(summary["id_token"]?["subject"] == .string("user-ada"), "\(login.stdout)")
      #expect(summary["id_token"]?["signature"]?.stringValue?.contains("not verified") == true)
      let me = try await setup.apx(["call", "me.me"])
      #expect(me.status == 0, "\(me.stderr)")
      #expect(try JSONParser.parse(Array(me.stdout.utf8))["sub"] == .string("user-ada"), "\(me.stdout)")

      let log = try await setup.log()
      let authorize = try #require(log.first { $0["path"] as? String == "/authorize" }, "\(log)")
      #expect(authorize["code_challenge_method"] as? String == "S256", "\(authorize)")
      let exchange = try #require(log.first { $0["grant_type"] as? String == "authorization_code" }, "\(log)")
      #expect(exchange["status"] as? Int == 200 && exchange["code_verifier"] as? Bool == true, "\(exchange)")
      // No secret reached what apx printed.
      let stored = setup.storedToken
      for key in ["access_token", "refresh_token", "id_token"] {
        let secret = try #require(stored[key] as? String, "\(key) in \(stored)")
        #expect(!login.stdout.contains(secret) && !login.stderr.contains(secret), "\(key)")
        #expect(!me.stderr.contains(secret), "\(key)")
      }
      let mode =
        try FileManager.default.attributesOfItem(atPath: setup.dir + "/state/tokens/me@default.json")[
          .posixPermissions] as? Int
      #expect(mode == 0o600)
    }
  }

  @Test func aRedirectWithAnotherStateIsRefusedBeforeAnyCodeIsExchanged() async throws {
    try await Self.with(["--wrong-state"]) { setup in
      let login = try await setup.apx(["auth", "login", "me", "--timeout", "30"])
      #expect(login.status == 8, "\(login.stderr)")
      #expect(login.stderr.contains("another state"), "\(login.stderr)")
      #expect(try await setup.log().allSatisfy { $0["grant_type"] as? String != "authorization_code" })
      #expect(setup.storedToken.isEmpty)
    }
  }

  @Test func aCodeBoundToAnotherVerifierIsRefusedByTheServer() async throws {
    try await Self.with(browser: Self.swappingBrowser) { setup in
      let login = try await setup.apx(["auth", "login", "me", "--timeout", "30"])
      #expect(login.status == 8, "\(login.stderr)")
      #expect(login.stderr.contains("refused to exchange the login's code"), "\(login.stderr)")
      #expect(login.stderr.contains("invalid_grant"), "\(login.stderr)")
      let exchange = try #require(try await setup.log().first { $0["grant_type"] as? String == "authorization_code" })
      #expect(exchange["status"] as? Int == 400)
    }
  }

  @Test func aDeclinedLoginSaysSo() async throws {
    try await Self.with(["--deny"]) { setup in
      let login = try await setup.apx(["auth", "login", "me", "--timeout", "30"])
      #expect(login.status == 8, "\(login.stderr)")
      #expect(login.stderr.contains("access_denied"), "\(login.stderr)")
    }
  }

  @Test func noBrowserPrintsTheURLAndWaitsAsLongAsTheTimeout() async throws {
    try await Self.with { setup in
      let login = try await setup.apx(["auth", "login", "me", "--no-browser", "--timeout", "1"])
      #expect(login.status == 8, "\(login.stderr)")
      #expect(login.stderr.contains(setup.issuer + "/authorize?response_type=code"), "\(login.stderr)")
      #expect(login.stderr.contains("did not come back"), "\(login.stderr)")
      #expect(setup.pagesOpened == 0)
    }
  }

  @Test func anExpiredTokenIsRefreshedWithTheRotatedRefreshTokenAndARefusedOneAsksForALogin() async throws {
    try await Self.with(["--access-ttl", "2"]) { setup in
      #expect(try await setup.apx(["auth", "login", "me", "--timeout", "30"]).status == 0)
      let first = try #require(setup.storedToken["refresh_token"] as? String)
      try await Task.sleep(for: .milliseconds(2_100))
      let call = try await setup.apx(["call", "me.me", "-v"])
      #expect(call.status == 0, "\(call.stderr)")
      let second = try #require(setup.storedToken["refresh_token"] as? String)
      #expect(second != first, "the server rotated the refresh token, and apx kept the new one")
      #expect(!call.stderr.contains(first) && !call.stderr.contains(second), "-v shows no refresh token")
      try await Task.sleep(for: .milliseconds(2_100))
      #expect(try await setup.apx(["call", "me.me"]).status == 0, "the rotated token refreshes again")
      let refreshes = try await setup.log().filter { $0["grant_type"] as? String == "refresh_token" }
      #expect(refreshes.count == 2 && refreshes.allSatisfy { $0["status"] as? Int == 200 }, "\(refreshes)")

      // The server ends the login: the next refresh is refused, and the call says to log in.
      let current = try #require(setup.storedToken["refresh_token"] as? String)
      _ = try await setup.post("/revoke", form: "token=\(current)&token_type_hint=refresh_token&client_id=cli")
      try await Task.sleep(for: .milliseconds(2_100))
      let refused = try await setup.apx(["call", "me.me"])
      #expect(refused.status == 8, "\(refused.stderr)")
      #expect(refused.stderr.contains("apx auth login me"), "\(refused.stderr)")
      #expect(setup.pagesOpened == 1, "a call never opens a browser")
    }
  }

  @Test func theDeviceFlowPollsAtTheServersPaceAndBacksOffOnSlowDown() async throws {
    try await Self.with(["--interval", "0", "--slow-down-first", "1"], auth: #""type": "oauth2_device_code""#) {
      setup in
      let login = Task { try await setup.apx(["auth", "login", "me", "--timeout", "30"]) }
      // Approve once apx has polled and been told to slow down, as the user would on the page
      // (the server judges the pace only while the login is pending).
      var approved = false
      for _ in 0..<100 where !approved {
        try await Task.sleep(for: .milliseconds(100))
        let slowed = try await setup.log().contains { $0["error"] as? String == "slow_down" }
        if slowed { approved = try await setup.post("/_test/approve_device", form: "").status == 200 }
      }
      #expect(approved)
      let result = try await login.value
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("enter the code"), "\(result.stderr)")
      let polls = try await setup.log().filter { ($0["grant_type"] as? String)?.hasSuffix("device_code") == true }
      #expect(polls.first?["error"] as? String == "slow_down", "\(polls)")
      let times = polls.compactMap { $0["at"] as? Double }
      // After a slow_down the interval grows by 5 s (RFC 8628 §3.5).
      #expect(times.count >= 2 && times[1] - times[0] >= 4.9, "\(times)")
      #expect(try await setup.apx(["call", "me.me"]).status == 0)
    }
  }

  @Test func aDeviceCodeThatExpiresEndsTheWait() async throws {
    try await Self.with(["--device-ttl", "2"], auth: #""type": "oauth2_device_code""#) { setup in
      let login = try await setup.apx(["auth", "login", "me", "--timeout", "30"], timeout: 30)
      #expect(login.status == 8, "\(login.stderr)")
      #expect(login.stderr.contains("expired"), "\(login.stderr)")
    }
  }

  @Test func logoutRevokesBothTokensAtTheServer() async throws {
    try await Self.with { setup in
      #expect(try await setup.apx(["auth", "login", "me", "--timeout", "30"]).status == 0)
      let access = try #require(setup.storedToken["access_token"] as? String)
      let out = try await setup.apx(["auth", "logout", "me"])
      #expect(out.status == 0, "\(out.stderr)")
      #expect(try JSONParser.parse(Array(out.stdout.utf8))["revoked"] == .bool(true), "\(out.stdout)")
      let revoked = try await setup.log().filter { $0["path"] as? String == "/revoke" }
      #expect(revoked.map { $0["token_type_hint"] as? String } == ["refresh_token", "access_token"], "\(revoked)")
      let port = Int(setup.issuer.split(separator: ":").last ?? "") ?? 0
      let me = try await LoopbackHTTP.request(
        port: port, "GET", "/api/me", headers: ["Authorization": "Bearer \(access)"])
      #expect(me.status == 401, "the revoked access token no longer works")
      #expect(try await setup.apx(["call", "me.me"]).status == 8)
    }
  }

  @Test func fiftyProcessesNeedingARefreshShareOneAndARecipeUsesTheLogin() async throws {
    try await Self.with(["--access-ttl", "2"]) { setup in
      #expect(try await setup.apx(["auth", "login", "me", "--timeout", "30"]).status == 0)
      try await Task.sleep(for: .milliseconds(2_100))
      // All at once, past the test's usual child limit: the token's lock makes them take turns,
      // and the refresh token, rotated by the first, is spent once.
      let env = APXProcess.environment(adding: setup.environment)
      let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
        for _ in 0..<50 {
          group.addTask {
            try await ChildProcess.run(
              APXProcess.binary.path, ["call", "me.me"], environment: env, timeout: 120, bounded: false
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.count == 50 && statuses.allSatisfy { $0 == 0 }, "\(statuses)")
      let refreshes = try await setup.log().filter { $0["grant_type"] as? String == "refresh_token" }
      #expect(refreshes.count == 1, "one refresh for fifty processes: \(refreshes)")

      let recipe = setup.dir + "/who.json"
      try #"""
      {"name": "who", "steps": [
        {"id": "first", "call": "me.me", "expect": {".body.sub": "user-ada"}},
        {"id": "again", "call": "me.me", "expect": {".body.scope": "${steps.first.body.scope}"}}
      ], "output": {"sub": "${steps.first.body.sub}"}}
      """#.write(toFile: recipe, atomically: true, encoding: .utf8)
      let run = try await setup.apx(["run", recipe])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("user-ada"), "\(run.stdout)")
    }
  }

  @Test func aRefusedAccessTokenIsRefreshedOnceAndTheCallReplayed() async throws {
    try await Self.with { setup in
      #expect(try await setup.apx(["auth", "login", "me", "--timeout", "30"]).status == 0)
      // The server drops the access token alone; the stored one still looks valid to apx.
      let access = try #require(setup.storedToken["access_token"] as? String)
      _ = try await setup.post("/revoke", form: "token=\(access)&token_type_hint=access_token&client_id=cli")
      let call = try await setup.apx(["call", "me.me"])
      #expect(call.status == 0, "\(call.stderr)")
      let refreshes = try await setup.log().filter { $0["grant_type"] as? String == "refresh_token" }
      #expect(refreshes.count == 1, "one refresh after the 401: \(refreshes)")
      #expect(setup.storedToken["access_token"] as? String != access)
    }
  }
}
