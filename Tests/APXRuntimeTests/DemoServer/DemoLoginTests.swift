import APXDemoServer
import AsyncHTTPClient
import Crypto
import Foundation
import NIOHTTP1
import Testing

/// The demo's user login is as strict as a real authorization server: the public client, a
/// loopback redirect URI, an S256 challenge, single-use codes, the device flow's pending answer.
@Suite("Demo login: authorization code with PKCE, device code, revocation")
struct DemoLoginTests {
  static let form = [("Content-Type", "application/x-www-form-urlencoded")]
  static let verifier = String(repeating: "v", count: 43)
  static var challenge: String {
    Data(SHA256.hash(data: Array(verifier.utf8))).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
  static let redirect = "http%3A%2F%2F127.0.0.1%3A4567%2Fcb"

  /// The authorization request, its redirect not followed (the harness's client follows them).
  static func authorize(_ demo: DemoHTTPHarness, _ query: String) async throws -> DemoHTTPHarness.Reply {
    let client = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    defer { _ = client.shutdown() }
    let response = try await client.execute(
      HTTPClientRequest(url: demo.server.httpBaseURL + "/oauth/authorize?" + query), timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 1 << 20)
    return DemoHTTPHarness.Reply(
      status: Int(response.status.code), headers: response.headers, body: String(buffer: bytes))
  }

  static func code(in reply: DemoHTTPHarness.Reply) -> String? {
    guard let location = reply.headers.first(name: "Location"),
      let items = URLComponents(string: location)?.queryItems
    else { return nil }
    return items.first { $0.name == "code" }?.value
  }

  @Test func aCodeIsExchangedOnceWithItsVerifierAndTheTokenCallsMe() async throws {
    try await DemoHTTPHarness.run { demo in
      let approved = try await Self.authorize(
        demo,
        "response_type=code&client_id=demo-app&redirect_uri=\(Self.redirect)&state=st1&code_challenge=\(Self.challenge)&code_challenge_method=S256&scope=books%3Aread"
      )
      #expect(approved.status == 302)
      let location = try #require(approved.headers.first(name: "Location"))
      #expect(location.hasPrefix("http://127.0.0.1:4567/cb?code=") && location.contains("state=st1"), "\(location)")
      let code = try #require(Self.code(in: approved))
      let wrong = try await demo.send(
        .POST, "/oauth/token", headers: Self.form,
        body:
          "grant_type=authorization_code&client_id=demo-app&code=\(code)&redirect_uri=\(Self.redirect)&code_verifier=\(String(repeating: "w", count: 43))"
      )
      #expect(wrong.status == 400 && wrong.json["error"] as? String == "invalid_grant", "\(wrong.body)")
      // The wrong verifier spent the code, as a real server does.
      let again = try await Self.authorize(
        demo,
        "response_type=code&client_id=demo-app&redirect_uri=\(Self.redirect)&state=st2&code_challenge=\(Self.challenge)&code_challenge_method=S256"
      )
      let second = try #require(Self.code(in: again))
      let exchange =
        "grant_type=authorization_code&client_id=demo-app&code=\(second)&redirect_uri=\(Self.redirect)&code_verifier=\(Self.verifier)"
      let granted = try await demo.send(.POST, "/oauth/token", headers: Self.form, body: exchange)
      #expect(granted.status == 200, "\(granted.body)")
      let access = try #require(granted.json["access_token"] as? String)
      let reused = try await demo.send(.POST, "/oauth/token", headers: Self.form, body: exchange)
      #expect(reused.json["error"] as? String == "invalid_grant")
      let me = try await demo.send(.GET, "/api/v2/me", headers: [("Authorization", "Bearer \(access)")])
      #expect(me.status == 200 && me.json["sub"] as? String == "demo-user", "\(me.body)")
      let revoked = try await demo.send(.POST, "/oauth/revoke", headers: Self.form, body: "token=\(access)")
      #expect(revoked.status == 200)
      let after = try await demo.send(.GET, "/api/v2/me", headers: [("Authorization", "Bearer \(access)")])
      #expect(after.status == 401)
    }
  }

  @Test func whatARealServerRefusesTheDemoRefuses() async throws {
    try await DemoHTTPHarness.run { demo in
      let outside = try await Self.authorize(
        demo,
        "response_type=code&client_id=demo-app&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&code_challenge=\(Self.challenge)&code_challenge_method=S256"
      )
      #expect(outside.status == 400 && outside.headers.first(name: "Location") == nil, "never redirected off loopback")
      let stranger = try await Self.authorize(demo, "response_type=code&client_id=other&redirect_uri=\(Self.redirect)")
      #expect(stranger.status == 400)
      let plain = try await Self.authorize(
        demo,
        "response_type=code&client_id=demo-app&redirect_uri=\(Self.redirect)&state=s&code_challenge=abc&code_challenge_method=plain"
      )
      #expect(plain.status == 302 && plain.headers.first(name: "Location")?.contains("error=invalid_request") == true)
      let secret = try await demo.send(
        .POST, "/oauth/token", headers: Self.form,
        body: "grant_type=authorization_code&client_id=demo-app&client_secret=x&code=c&redirect_uri=\(Self.redirect)")
      #expect(secret.status == 401, "the login client is public: \(secret.body)")
    }
  }

  @Test func theDeviceFlowIsPendingOnceThenGranted() async throws {
    try await DemoHTTPHarness.run { demo in
      let started = try await demo.send(
        .POST, "/oauth/device_authorization", headers: Self.form, body: "client_id=demo-app&scope=books%3Aread")
      #expect(started.status == 200, "\(started.body)")
      let device = try #require(started.json["device_code"] as? String)
      #expect((started.json["verification_uri"] as? String)?.hasSuffix("/oauth/device") == true)
      let poll =
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=demo-app&device_code=\(device)"
      let pending = try await demo.send(.POST, "/oauth/token", headers: Self.form, body: poll)
      #expect(pending.json["error"] as? String == "authorization_pending", "\(pending.body)")
      let granted = try await demo.send(.POST, "/oauth/token", headers: Self.form, body: poll)
      #expect(granted.status == 200 && granted.json["refresh_token"] != nil, "\(granted.body)")
    }
  }
}
