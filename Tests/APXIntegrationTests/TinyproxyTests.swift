import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// Calls through tinyproxy, a forward proxy no one here wrote, configured as office proxies
/// are: CONNECT only to port 443. Plain http:// goes to it as an absolute-form request
/// (`GET http://host:port/path`), as curl sends it; https:// through a CONNECT tunnel where the
/// proxy allows one. Skipped, saying why, when tinyproxy is not installed; `.ci/run` installs it.
@Suite(
  "tinyproxy", .serialized, .timeLimit(.minutes(5)),
  .enabled(if: Tinyproxy.shouldRun, "tinyproxy is not installed (apt-get install tinyproxy)"))
struct TinyproxyTests {
  /// The echo's answer: what the demo received.
  struct Echo: Decodable {
    var path: String
    var query: String?
    var headers: [[String]]
    var body_bytes: Int

    func header(_ name: String) -> String? { headers.first { $0.first?.lowercased() == name.lowercased() }?.last }
  }

  @Test func plainHTTPGoesAsAnAbsoluteURLToAProxyThatTunnelsOnlyTo443() async throws {
    try await withDemoServer { demo in
      let base = demo.httpBaseURL
      try await Tinyproxy.with { proxy in
        let r = try await APXProcess.run(["call", base + "/_demo/echo/a?x=1", "--proxy", proxy.url(), "-v"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("* via proxy \(proxy.url())"), "\(r.stderr)")
        let echo = try JSONDecoder().decode(Echo.self, from: Data(r.stdout.utf8))
        #expect(echo.path == "/_demo/echo/a")
        #expect(echo.query == "x=1")
        #expect(echo.header("Via")?.contains("tinyproxy") == true, "\(echo.headers)")
        #expect(proxy.requests == ["GET \(base)/_demo/echo/a?x=1 HTTP/1.1"], "\(proxy.logText)")
      }
    }
  }

  @Test func streamedBodiesAndEventStreamsGoThroughIt() async throws {
    try await withDemoServer { demo in
      let base = demo.httpBaseURL
      try await Tinyproxy.with { proxy in
        let file = TestScratch.root.appendingPathComponent("proxied-body-\(UUID().uuidString).json")
        let body = "[" + Array(repeating: "\"0123456789abcdef\"", count: 20_000).joined(separator: ",") + "]"
        try body.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let env = ["HTTP_PROXY": proxy.url()]
        let fromFile = try await APXProcess.run(
          ["call", "POST", base + "/_demo/echo", "-d", "@" + file.path], environment: env)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try JSONDecoder().decode(Echo.self, from: Data(fromFile.stdout.utf8)).body_bytes == body.utf8.count)
        // From stdin the length is not known: the body goes chunked.
        let fromStdin = try await APXProcess.run(
          ["call", "POST", base + "/_demo/echo", "-d", "@-"], environment: env, stdin: Data(body.utf8))
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        let chunked = try JSONDecoder().decode(Echo.self, from: Data(fromStdin.stdout.utf8))
        #expect(chunked.body_bytes == body.utf8.count)
        let events = try await APXProcess.run(
          ["call", base + "/_demo/ticks", "n==3", "stream==true"], environment: env)
        #expect(events.status == 0, "\(events.stderr)")
        #expect(events.stdout.split(separator: "\n").count == 4, "\(events.stdout)")
        #expect(proxy.requests.count == 3, "\(proxy.requests)")
        #expect(proxy.requests.allSatisfy { $0.contains(" http://127.0.0.1:") }, "\(proxy.requests)")
      }
    }
  }

  /// tinyproxy closes each connection after its answer without saying so: requests sent one
  /// after another on a kept connection would sometimes meet that close and be lost. Each goes
  /// on a connection of its own, so hundreds of pages in a row, not retried, all arrive.
  @Test func requestsInARowEachHaveAConnectionOfTheirOwn() async throws {
    try await withDemoServer { demo in
      let base = demo.httpBaseURL
      try await Tinyproxy.with { proxy in
        let r = try await APXProcess.run(
          [
            "call", "books.catalogue.list", "per_page=10", "total=2000", "--all", "--no-retry", "--base-url", base,
            "--proxy", proxy.url(),
          ], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.split(separator: "\n").count == 2000)
        #expect(proxy.requests.count >= 200, "\(proxy.requests.count)")
      }
    }
  }

  @Test func itsCredentialsGoInTheRequestAndAreMasked() async throws {
    try await withDemoServer { demo in
      let base = demo.httpBaseURL
      try await Tinyproxy.with(credentials: ("alice", "s3cret-pw")) { proxy in
        let without = try await APXProcess.run(["call", base + "/_demo/echo", "--proxy", proxy.url()])
        #expect(without.status == 8, "\(without.stderr)")
        #expect(without.stderr.contains("the proxy \(proxy.url()) asks for credentials"), "\(without.stderr)")
        let right = try await APXProcess.run(
          ["call", base + "/_demo/echo", "-v"],
          environment: ["HTTP_PROXY": proxy.url(user: "alice", password: "s3cret-pw")])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stderr.contains("* via proxy http://alice:***@127.0.0.1:\(proxy.port)"), "\(right.stderr)")
        let secret = Data("alice:s3cret-pw".utf8).base64EncodedString()
        for text in [right.stdout, right.stderr] {
          #expect(!text.contains("s3cret-pw") && !text.contains(secret), "\(text)")
        }
      }
    }
  }

  /// A WebSocket goes through tinyproxy's CONNECT tunnel: refused where tinyproxy allows CONNECT
  /// only to 443, through where it allows the demo's port.
  @Test func webSocketsTunnelWhereTheProxyAllowsCONNECT() async throws {
    try await withDemoServer { demo in
      let ws = demo.httpBaseURL.replacingOccurrences(of: "http://", with: "ws://") + "/ws/echo"
      let echo = ["call", ws, "-d", #"{"n":1}"#, "--max-messages", "1", "--no-retry"]
      try await Tinyproxy.with { proxy in
        let refused = try await APXProcess.run(echo + ["--proxy", proxy.url()])
        #expect(refused.status == 6, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused to open a tunnel"), "\(refused.stderr)")
      }
      try await Tinyproxy.with(connectPorts: [demo.httpPort]) { proxy in
        let through = try await APXProcess.run(echo, environment: ["HTTP_PROXY": proxy.url()])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(through.stdout.contains(#"{"n":1}"#), "\(through.stdout)")
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(demo.httpPort) HTTP/1.1"], "\(proxy.requests)")
      }
    }
  }

  @Test func httpsTunnelsOnlyWhereTheProxyAllowsCONNECT() async throws {
    try await TrustStoreEnvironmentTests.withServer(host: "localhost") { ca, server, registry in
      let env = ["SSL_CERT_FILE": ca.certificatePath]
      try await Tinyproxy.with { proxy in
        let refused = try await APXProcess.run(
          ["call", "secure.get", "--registry", registry, "--no-retry", "--proxy", proxy.url()], environment: env)
        #expect(refused.status == 6, "\(refused.stderr)")
        #expect(
          refused.stderr.contains("refused to open a tunnel to https://localhost:\(server.port)"), "\(refused.stderr)")
      }
      try await Tinyproxy.with(connectPorts: [server.port]) { proxy in
        let tunnelled = try await APXProcess.run(
          ["call", "secure.get", "--registry", registry, "--proxy", proxy.url()], environment: env)
        #expect(tunnelled.status == 0, "\(tunnelled.stderr)")
        #expect(tunnelled.stdout.contains("\"tls\""), "\(tunnelled.stdout)")
        #expect(proxy.requests == ["CONNECT localhost:\(server.port) HTTP/1.1"], "\(proxy.requests)")
      }
    }
  }

  /// HTTPS to an IP address through the tunnel: the certificate is checked against the target's
  /// IP address (its IP SAN), as curl does, not against the proxy's name.
  @Test func httpsToAnIPAddressIsVerifiedAgainstThatAddress() async throws {
    try await TrustStoreEnvironmentTests.withServer(host: "127.0.0.1") { ca, server, registry in
      try await Tinyproxy.with(connectPorts: [server.port]) { proxy in
        let tunnelled = try await APXProcess.run(
          ["call", "secure.get", "--registry", registry, "--proxy", proxy.url()],
          environment: ["SSL_CERT_FILE": ca.certificatePath])
        #expect(tunnelled.status == 0, "\(tunnelled.stderr)")
        #expect(tunnelled.stdout.contains("\"tls\""), "\(tunnelled.stdout)")
        #expect(proxy.requests == ["CONNECT 127.0.0.1:\(server.port) HTTP/1.1"], "\(proxy.requests)")
      }
    }
  }
}
