import APXDemoServer
import Foundation
import Testing

/// End to end with the real binary: credentials do not follow a
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

  /// Credentials typed on the command line (`-a`, `-H`, header items) are masked when a server
  /// echoes them, in its error body or a response header under `-v`: only their header names
  /// were known, so the values (and `-a`'s base64) were shown as the server sent them.
  @Test func credentialsFromTheCommandLineAreMaskedWhenAServerEchoesThem() async throws {
    let answer: HostileHTTPServer.Answer = { head in
      // Every credential header value the request carried, and the decoded Basic credentials.
      var echoed: [String] = []
      for line in head.split(separator: "\r\n") {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard ["authorization", "x-api-key", "cookie"].contains(name) else { continue }
        echoed.append(value)
        if value.hasPrefix("Basic "), let data = Data(base64Encoded: String(value.dropFirst(6))) {
          echoed.append(String(decoding: data, as: UTF8.self))
        }
      }
      let text = echoed.joined(separator: " | ")
      return HostileHTTPServer.response(
        "401 Unauthorized", headers: [("Content-Type", "text/plain"), ("X-Echo", text)], body: Array(text.utf8))
    }
    try await withHostileServer(answer) { server in
      for credentials in [
        ["-a", "ann:pw-9f8e7d"], ["-H", "X-Api-Key: key-5c4b3a"], ["Authorization:Bearer tok-1a2b3c"],
        ["Cookie:sid=ck-6d5e4f; theme=dark"],
      ] {
        let r = try await APXProcess.run(["call", server.baseURL + "/x", "-v", "--no-retry"] + credentials)
        #expect(r.status == 4 || r.status == 8, "\(credentials): \(r.stderr)")
        #expect(r.stderr.contains("***"), "\(r.stderr)")
        for secret in ["pw-9f8e7d", "YW5uOnB3LTlmOGU3ZA==", "key-5c4b3a", "tok-1a2b3c", "ck-6d5e4f"] {
          #expect(!r.combined.contains(secret), "\(credentials): \(secret) shown: \(r.combined)")
        }
      }
    }
  }
}
