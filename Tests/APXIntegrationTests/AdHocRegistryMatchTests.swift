import APXDemoServer
import APXTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An ad-hoc URL under a registry API's base URL gets that API's auth (a stored
/// OAuth2 token, refreshed on 401), headers and retry policy.
@Suite("apx call URL under a registry API")
struct AdHocRegistryMatchTests {
  /// A registry folder with books.json pointing its demo environment at `baseURL`.
  static func registry(baseURL: String) throws -> String {
    let source = try String(contentsOfFile: APXProcess.endpoints + "/books.json", encoding: .utf8)
    let file = try temporaryFile("books.json", source.replacingOccurrences(of: "http://127.0.0.1:8080", with: baseURL))
    return (file as NSString).deletingLastPathComponent
  }

  @Test func aURLUnderTheBaseURLGetsATokenAndRefreshesIt() async throws {
    let state = TestScratch.root.appendingPathComponent("apx-adhoc-\(UUID().uuidString)").path
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let env = ["APX_STATE_DIR": state, "APX_REGISTRY": try Self.registry(baseURL: server.httpBaseURL)]
      let url = server.httpBaseURL + "/api/v2/capabilities"
      let first = try await APXProcess.run(["call", url, "-v"], environment: env)
      #expect(first.status == 0, "\(first.stderr)")
      #expect(first.stdout.hasPrefix("{\"api\":\"books\""))
      #expect(first.stderr.contains("under the API \"books\" (environment \"demo\""))
      #expect(first.stderr.contains("Authorization: Bearer ***"))
      #expect(first.stderr.contains("Accept: application/json"), "the API's default headers apply")
      #expect(server.stats.tokenRequests == 1)

      // The server forgets its tokens: the stored one is refused, refreshed once, and the call replayed.
      var expire = URLRequest(url: URL(string: server.httpBaseURL + "/_demo/expire-tokens")!)
      expire.httpMethod = "POST"
      _ = try await URLSession.shared.data(for: expire)
      let second = try await APXProcess.run(["call", url], environment: env)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(server.stats.tokenRequests == 2)

      let noAuth = try await APXProcess.run(["call", url, "--no-auth"], environment: env)
      #expect(noAuth.status == 8 || noAuth.status == 4, "a 401 without credentials: \(noAuth.stderr)")
      #expect(server.stats.tokenRequests == 2)
    }
  }

  /// Two APIs whose base URLs cover the URL equally: refused (exit 2) naming both, rather than
  /// sending the alphabetically first one's credentials; `--no-auth` calls with neither. The
  /// longer base URL wins over a shorter one.
  @Test func equallyLongBaseURLsOfTwoAPIsAreRefusedAndTheLongestWins() async throws {
    try await withDemoServer { server in
      let folder = TestScratch.root.appendingPathComponent("apx-tie-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      func api(_ name: String, _ base: String) throws {
        let text = """
          {"api": "\(name)", "environments": {"prod": {"base_url": "\(base)"}},
           "auth": {"type": "bearer", "token": "\(name)-t0ken"}, "endpoints": {}}
          """
        try text.write(to: folder.appendingPathComponent(name + ".json"), atomically: true, encoding: .utf8)
      }
      try api("alpha", server.httpBaseURL)
      try api("beta", server.httpBaseURL + "/")
      let env = ["APX_REGISTRY": folder.path]
      let url = server.httpBaseURL + "/_demo/headers"
      let tie = try await APXProcess.run(["call", url + "?access_token=q-s3cr3t-tie"], environment: env)
      #expect(tie.status == 2, "\(tie.stderr)")
      #expect(!tie.stderr.contains("q-s3cr3t-tie"), "\(tie.stderr)")
      #expect(tie.stderr.contains("under the base URLs of 2 registry APIs (alpha, beta)"), "\(tie.stderr)")
      #expect(tie.stderr.contains("--no-auth"), "\(tie.stderr)")
      let none = try await APXProcess.run(["call", url, "--no-auth"], environment: env)
      #expect(none.status == 0, "\(none.stderr)")
      #expect(!none.stdout.contains("t0ken"), "\(none.stdout)")
      try api("gamma", server.httpBaseURL + "/_demo")
      let longest = try await APXProcess.run(["call", url, "-v"], environment: env)
      #expect(longest.status == 0, "\(longest.stderr)")
      #expect(longest.stderr.contains("under the API \"gamma\""), "\(longest.stderr)")
    }
  }

  @Test func aURLOutsideEveryBaseURLGetsNoAuth() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      // Same host and port, but /api/v20 is not under a base URL of /api/v2.
      let env = ["APX_REGISTRY": try Self.registry(baseURL: server.httpBaseURL + "/api/v2")]
      let r = try await APXProcess.run(["call", server.httpBaseURL + "/api/v20/capabilities", "-v"], environment: env)
      #expect(!r.stderr.contains("under the API"), "\(r.stderr)")
      #expect(server.stats.tokenRequests == 0)
    }
  }
}
