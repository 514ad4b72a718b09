import APXCore
import APXTestSupport
import Foundation
import Testing

/// `apx auth login account --demo`: a user's login completed offline, apx following the demo's
/// auto-approving login page itself; and against a running `apx demo`, with `$BROWSER`.
@Suite("A user's login on the demo")
struct DemoLoginCLITests {
  @Test func loginOnTheEmbeddedDemoCompletesByItself() async throws {
    let login = try await APXProcess.run(["auth", "login", "account", "--demo"], timeout: 60)
    #expect(login.status == 0, "\(login.stderr)")
    let summary = try JSONParser.parse(Array(login.stdout.utf8))
    #expect(summary["type"] == .string("oauth2_authorization_code") && summary["logged_in"] == .bool(true))
    #expect(summary["has_refresh_token"] == .bool(true), "\(login.stdout)")
    #expect(login.stderr.contains("approves by itself"), "\(login.stderr)")
  }

  @Test func aLoginOnARunningDemoServesCallsAndLogoutRevokesIt() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-demo-login-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try """
    #!/usr/bin/env python3
    import sys, urllib.request
    urllib.request.urlopen(sys.argv[1], timeout=20).read()
    """.write(toFile: dir + "/browser.py", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/browser.py")
    let env = ["APX_STATE_DIR": dir + "/state", "BROWSER": dir + "/browser.py"]
    try await withDemoServer { server in
      let base = server.httpBaseURL
      let login = try await APXProcess.run(["auth", "login", "account", "--base-url", base], environment: env)
      #expect(login.status == 0, "\(login.stderr)")
      let me = try await APXProcess.run(["call", "account.me", "--base-url", base], environment: env)
      #expect(me.status == 0, "\(me.stderr)")
      #expect(try JSONParser.parse(Array(me.stdout.utf8))["sub"] == .string("demo-user"), "\(me.stdout)")
      let logout = try await APXProcess.run(["auth", "logout", "account", "--base-url", base], environment: env)
      #expect(try JSONParser.parse(Array(logout.stdout.utf8))["revoked"] == .bool(true), "\(logout.stdout)")
      let after = try await APXProcess.run(["call", "account.me", "--base-url", base], environment: env)
      #expect(after.status == 8, "\(after.stderr)")
    }
  }

  @Test func aLoginAgainstApxMockServesCallsAndLogsOut() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-mock-login-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.browser.write(toFile: dir + "/browser.py", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir + "/browser.py")
    let env = ["APX_STATE_DIR": dir + "/state", "BROWSER": dir + "/browser.py"]
    _ = try await MockProcess.with(["account"]) { mock in
      let base = try #require(mock.urls["account"], "\(mock.urls)")
      let login = try await APXProcess.run(["auth", "login", "account", "--base-url", base], environment: env)
      #expect(login.status == 0, "\(login.stderr)")
      let me = try await APXProcess.run(["call", "account.me", "--base-url", base], environment: env)
      #expect(me.status == 0, "\(me.stderr)")
      let logout = try await APXProcess.run(["auth", "logout", "account", "--base-url", base], environment: env)
      #expect(try JSONParser.parse(Array(logout.stdout.utf8))["revoked"] == .bool(true), "\(logout.stdout)")
    }
  }

  static let browser = """
    #!/usr/bin/env python3
    import sys, urllib.request
    urllib.request.urlopen(sys.argv[1], timeout=20).read()
    """
}
