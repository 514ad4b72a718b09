import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// Cookies a server sets go back by RFC 6265's rules: within one run (a recipe's steps), and
/// across runs with `--session NAME`, whose jar is a 0600 file that `apx session` manages.
@Suite struct CookieSessionTests {
  static func state() -> [String: String] {
    ["APX_STATE_DIR": TestScratch.root.appendingPathComponent("apx-cookie-state-\(UUID().uuidString)").path]
  }

  /// The cookies `GET /_demo/cookies` saw, from apx's stdout.
  static func seen(_ stdout: String) -> [String: String] {
    let object = (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
    return object?["cookies"] as? [String: String] ?? [:]
  }

  @Test func aSessionKeepsCookiesAcrossCallsInA0600File() async throws {
    let env = Self.state()
    try await withDemoServer { server in
      let base = server.httpBaseURL
      let set = try await APXProcess.run(
        ["call", base + "/_demo/cookies/set?sid=s3cr3t-cookie&path=/_demo", "--session", "work"], environment: env)
      #expect(set.status == 0, "\(set.stderr)")
      let har = try temporaryFile("cookies.har", "")
      let back = try await APXProcess.run(
        ["call", base + "/_demo/cookies", "--session", "work", "-v", "--har", har], environment: env)
      #expect(back.status == 0, "\(back.stderr)")
      #expect(Self.seen(back.stdout) == ["sid": "s3cr3t-cookie"], "\(back.stdout)")
      #expect(!back.stderr.contains("s3cr3t-cookie"), "-v masks the Cookie header: \(back.stderr)")
      // The answer echoes the cookie: the archive masks it there too.
      let archived = try String(contentsOfFile: har, encoding: .utf8)
      #expect(archived.contains("/_demo/cookies") && !archived.contains("s3cr3t-cookie"), "\(archived)")
      // Without the session, nothing is sent.
      let fresh = try await APXProcess.run(["call", base + "/_demo/cookies"], environment: env)
      #expect(Self.seen(fresh.stdout).isEmpty, "\(fresh.stdout)")

      let file = try #require(env["APX_STATE_DIR"]) + "/sessions/work.json"
      let mode = try #require(FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)
      #expect(mode.intValue & 0o777 == 0o600)

      let list = try await APXProcess.run(["session", "list"], environment: env)
      #expect(list.stdout.contains(#""session":"work""#) && list.stdout.contains(#""cookies":1"#), "\(list.stdout)")
      let show = try await APXProcess.run(["session", "show", "work"], environment: env)
      #expect(show.status == 0 && show.stdout.contains(#""name":"sid""#), "\(show.stdout)")
      #expect(!show.stdout.contains("s3cr3t-cookie"), "values are masked: \(show.stdout)")
      let clear = try await APXProcess.run(["session", "clear", "work"], environment: env)
      #expect(clear.status == 0, "\(clear.stderr)")
      let gone = try await APXProcess.run(["call", base + "/_demo/cookies", "--session", "work"], environment: env)
      #expect(Self.seen(gone.stdout).isEmpty)
      let again = try await APXProcess.run(["session", "clear", "nope"], environment: env)
      #expect(again.status == 2 && again.stderr.contains("there is no session \"nope\""), "\(again.stderr)")
    }
  }

  /// Two calls with one session at once, each given another cookie: the session keeps both
  /// (each run applies what it received onto the session as stored when it ends, under a lock).
  @Test func twoCallsAtOnceKeepBothCookies() async throws {
    let env = Self.state()
    try await withDemoServer { server in
      let base = server.httpBaseURL
      async let slow = APXProcess.run(
        ["call", base + "/_demo/cookies/set?first=1&delay_ms=3000", "--session", "both"], environment: env)
      try await Task.sleep(for: .milliseconds(500))
      let fast = try await APXProcess.run(
        ["call", base + "/_demo/cookies/set?second=2", "--session", "both"], environment: env)
      #expect(fast.status == 0, "\(fast.stderr)")
      let first = try await slow
      #expect(first.status == 0, "\(first.stderr)")
      let back = try await APXProcess.run(["call", base + "/_demo/cookies", "--session", "both"], environment: env)
      #expect(Self.seen(back.stdout) == ["first": "1", "second": "2"], "\(back.stdout)")
    }
  }

  @Test func badSessionUsesAreRefused() async throws {
    let env = Self.state()
    for arguments in [
      ["call", "http://127.0.0.1:9/x", "--session", "../escape"],
      ["call", "http://127.0.0.1:9/x", "--session", "ok", "--dry-run"],
    ] {
      let result = try await APXProcess.run(arguments, environment: env)
      #expect(result.status == 2, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("--session"), "\(result.stderr)")
    }
  }

  @Test func aRecipesStepsShareTheCookiesTheServerSet() async throws {
    try await withDemoServer { server in
      let registry = try temporaryFile(
        "site.json",
        #"""
        {"api": "site", "environments": {"demo": {"base_url": "\#(server.httpBaseURL)"}}, "endpoints": {
          "login": {"kind": "rest", "method": "GET", "path": "/_demo/cookies/set", "params": {"sid": {"in": "query"}}},
          "me": {"kind": "rest", "method": "GET", "path": "/_demo/cookies"}}}
        """#)
      let recipe = try temporaryFile(
        "flow.json",
        #"""
        {"name": "flow", "steps": [
          {"id": "login", "call": "site.login", "with": {"sid": "abc"}},
          {"id": "me", "call": "site.me"}],
         "output": "${steps.me.body.cookies.sid}"}
        """#)
      let run = try await APXProcess.run(
        ["run", recipe, "--registry", URL(fileURLWithPath: registry).deletingLastPathComponent().path],
        environment: Self.state())
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains("abc"), "\(run.stdout)")
    }
  }
}
