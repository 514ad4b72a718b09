import APXDemoServer
import Foundation
import Testing

/// Issue 10 items 5 and 6, end to end with the real binary: credentials do not follow a
/// redirect to another origin, and secrets are masked in every encoding apx sends them in.
@Suite struct SecretLeakTests {
  static func json(_ text: String) -> [String: Any] {
    ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]) ?? [:]
  }

  /// A registry whose API key goes in a header with a name that says nothing about keys.
  static func keyedRegistry(_ server: DemoServer) throws -> String {
    try TestRegistry.make(
      """
      {"api": "keyed", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
       "auth": {"type": "api_key", "in": "header", "name": "X-Demo-Pass", "value": "${env:T_KEY}"},
       "headers": {"X-Tenant-Pass": "${env:T_TENANT}", "X-Plain": "plain"},
       "endpoints": {"hop": {"kind": "rest", "path": "/_demo/redirect",
         "params": {"to": {"in": "query", "required": true}}}}}
      """)
  }

  @Test func aRedirectToAnotherOriginDropsEveryCredential() async throws {
    try await withDemoServer { server in
      let registry = try Self.keyedRegistry(server)
      // localhost and 127.0.0.1 are the same server but two origins.
      let port = server.httpBaseURL.split(separator: ":").last.map(String.init) ?? ""
      let env = ["T_KEY": "key-4711-secret", "T_TENANT": "tenant-0815"]
      let away = try await APXProcess.run(
        [
          "call", "keyed.hop", "to=http://localhost:\(port)/_demo/headers", "--registry", registry,
          "-H", "X-Goog-Api-Key: goog-1234", "-H", "X-Trace: trace-1",
        ], environment: env)
      #expect(away.status == 0, "\(away.stderr)")
      let seen = Self.json(away.stdout)
      #expect(seen["x-trace"] as? String == "trace-1", "\(away.stdout)")
      #expect(seen["x-plain"] as? String == "plain")
      for name in ["x-demo-pass", "x-goog-api-key", "x-tenant-pass", "authorization"] {
        #expect(seen[name] == nil, "\(name) followed the redirect: \(away.stdout)")
      }
      // The same origin keeps them.
      let home = try await APXProcess.run(
        ["call", "keyed.hop", "to=\(server.httpBaseURL)/_demo/headers", "--registry", registry], environment: env)
      #expect(Self.json(home.stdout)["x-demo-pass"] as? String == "key-4711-secret", "\(home.stdout) \(home.stderr)")
    }
  }

  @Test func aPercentEncodedAPIKeyIsMaskedInErrors() async throws {
    try await withDemoServer { server in
      let key = "AbC+dEf/GhI="
      let r = try await APXProcess.run(
        ["call", "gifs.trending", "--base-url", server.httpBaseURL, "--no-retry"], environment: ["GIFS_API_KEY": key])
      #expect(r.status != 0)
      #expect(!r.combined.contains("AbC%2BdEf%2FGhI%3D"), "\(r.stderr)")
      #expect(!r.combined.contains(key), "\(r.stderr)")
      #expect(r.stderr.contains("***"), "\(r.stderr)")
    }
  }
}
