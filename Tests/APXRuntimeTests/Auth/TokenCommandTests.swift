import APXCore
import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// `token_command` auth: the command runs without a shell, its token is cached
/// until the expiry it reports or the configured lifetime, and failures are
/// auth errors that show its (masked) stderr.
@Suite struct TokenCommandTests {
  /// An executable script in a fresh folder, plus the file it appends a line to on every run.
  func script(_ body: String) throws -> (path: String, runs: String) {
    let dir = TestScratch.root.appendingPathComponent("apx-cmd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let runs = dir.appendingPathComponent("runs").path
    let path = dir.appendingPathComponent("print-token").path
    try ("#!/bin/sh\necho run >> '\(runs)'\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    return (path, runs)
  }

  func runCount(_ runs: String) -> Int {
    ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  func api(_ command: [String], lifetime: Double? = nil) throws -> (APIDefinition, AuthConfig) {
    let auth = AuthConfig.tokenCommand(command: command, lifetime: lifetime)
    return (APIDefinition(name: "cloud", auth: auth, sourceFile: "cloud.json"), auth)
  }

  @Test func aReportedExpiryIsHonouredAndTheTokenStored() async throws {
    let (path, runs) = try script(#"echo '{"access_token": "cmd-token-123", "expires_in": 3600}'"#)
    let (api, auth) = try api([path])
    let store = AuthFixture.store()
    let clock = ManualClock()
    try await HTTPSession.with { session in
      let tokens = TokenManager(
        session: session, environment: ProcessInfo.processInfo.environment, store: store, clock: clock)
      #expect(
        try await tokens.token(for: auth, api: api, environment: "prod", baseURL: "", forceRefresh: false)
          == "cmd-token-123")
      #expect(
        try await tokens.token(for: auth, api: api, environment: "prod", baseURL: "", forceRefresh: false)
          == "cmd-token-123")
      #expect(runCount(runs) == 1)
      // Another run reads it from the store.
      let next = TokenManager(
        session: session, environment: ProcessInfo.processInfo.environment, store: store, clock: clock)
      _ = try await next.token(for: auth, api: api, environment: "prod", baseURL: "", forceRefresh: false)
      #expect(runCount(runs) == 1)
      // Close to its expiry it is replaced.
      clock.advance(by: 3590)
      _ = try await next.token(for: auth, api: api, environment: "prod", baseURL: "", forceRefresh: false)
      #expect(runCount(runs) == 2)
    }
    #expect(try AuthFixture.permissions(store.path(api: "cloud", environment: "prod")) == 0o600)
  }

  @Test func theConfiguredLifetimeAppliesToPlainOutput() async throws {
    let (path, runs) = try script("echo plain-token-456")
    let (api, auth) = try api([path], lifetime: 100)
    let clock = ManualClock()
    try await HTTPSession.with { session in
      let tokens = TokenManager(
        session: session, environment: ProcessInfo.processInfo.environment, store: AuthFixture.store(), clock: clock)
      #expect(
        try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
          == "plain-token-456")
      clock.advance(by: 50)
      _ = try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      #expect(runCount(runs) == 1)
      clock.advance(by: 60)
      _ = try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      #expect(runCount(runs) == 2)
    }
  }

  @Test func aTokenOfUnknownLifetimeIsKeptForThisRunOnly() async throws {
    let (path, runs) = try script("echo plain-token-789")
    let (api, auth) = try api([path])
    let store = AuthFixture.store()
    try await HTTPSession.with { session in
      let env = ProcessInfo.processInfo.environment
      let tokens = TokenManager(session: session, environment: env, store: store)
      _ = try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      _ = try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      #expect(runCount(runs) == 1)
      #expect(try await store.read(api: "cloud", environment: "e") == nil)
      // Rejected by the server: run the command again.
      _ = try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", rejected: "plain-token-789")
      #expect(runCount(runs) == 2)
    }
  }

  @Test func aFailingCommandIsAnAuthErrorWithItsMaskedStderr() async throws {
    let (path, _) = try script(
      "echo leaked-token-abc\necho \"cannot refresh leaked-token-abc: login expired\" >&2\nexit 3")
    let (api, auth) = try api([path])
    let error = await #expect(throws: APXError.self) {
      try await HTTPSession.with { session in
        let tokens = TokenManager(session: session, environment: ProcessInfo.processInfo.environment, store: nil)
        return try await tokens.token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      }
    }
    let e = try #require(error)
    #expect(e.status == .auth)
    #expect(e.message.contains("\"cloud\"") && e.message.contains("exit status 3"))
    #expect(e.cause?.contains("login expired") == true)
    #expect(!e.description.contains("leaked-token-abc"))
  }

  @Test func aMissingProgramSaysSo() async throws {
    let (api, auth) = try api(["apx-no-such-program-\(UUID().uuidString)"])
    let error = await #expect(throws: APXError.self) {
      try await HTTPSession.with { session in
        try await TokenManager(session: session, environment: ["PATH": "/usr/bin:/bin"], store: nil)
          .token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
      }
    }
    #expect(error?.status == .auth)
    #expect(error?.message.contains("not found") == true)
  }

  @Test func argumentsArePassedWithoutAShell() async throws {
    // `$HOME; echo` would expand in a shell; here it must arrive as one literal argument.
    let (path, _) = try script(#"printf '%s\n' "$1""#)
    let (api, auth) = try api([path, "tok-$HOME;echo"])
    let token = try await HTTPSession.with { session in
      try await TokenManager(session: session, environment: ProcessInfo.processInfo.environment, store: nil)
        .token(for: auth, api: api, environment: "e", baseURL: "", forceRefresh: false)
    }
    #expect(token == "tok-$HOME;echo")
  }

  @Test func outputFormsAreParsed() {
    let now = 1_000_000.0
    #expect(TokenCommandOutput.parse("abc\n", now: now) == TokenCommandOutput(token: "abc", expiresAt: nil))
    #expect(TokenCommandOutput.parse("notice: hi there\nxyz\n", now: now)?.token == "xyz")
    #expect(TokenCommandOutput.parse(#"{"accessToken":"t","expires_in":"60"}"#, now: now)?.expiresAt == now + 60)
    #expect(TokenCommandOutput.parse(#"{"token":"t","expires_at":2000000}"#, now: now)?.expiresAt == 2_000_000)
    #expect(
      TokenCommandOutput.parse(#"{"token":"t","expires_on":2000000000000}"#, now: now)?.expiresAt == 2_000_000_000)
    #expect(
      TokenCommandOutput.parse(#"{"access_token":"t","expiry":"1970-01-12T13:46:40Z"}"#, now: now)?.expiresAt
        == 1_000_000)
    #expect(TokenCommandOutput.parse("", now: now) == nil)
    #expect(TokenCommandOutput.parse(#"{"nothing":1}"#, now: now) == nil)
  }

  /// A command that hangs (ignoring SIGTERM, too) is bound by `--timeout`,
  /// stopped, and reported as a timeout rather than as "printed no token".
  @Test func aHangingCommandIsStoppedAtTheTimeoutAndReportedAsOne() async throws {
    let (path, _) = try script("trap '' TERM\nexec sleep 30")
    let (api, auth) = try api([path])
    let error = try await HTTPSession.with { session in
      let tokens = TokenManager(
        session: session, environment: ProcessInfo.processInfo.environment, store: nil, timeout: 0.5)
      return await #expect(throws: APXError.self) {
        try await tokens.token(for: auth, api: api, environment: "prod", baseURL: "", forceRefresh: false)
      }
    }
    #expect(error?.status == .timeout)
    #expect(error?.message.contains("did not finish within 0.5s") == true, "\(String(describing: error))")
    #expect(error?.hint?.contains("--timeout") == true)
  }
}
