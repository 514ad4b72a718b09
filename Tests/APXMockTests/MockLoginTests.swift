import APXCore
import Crypto
import Synchronization
import Testing

@testable import APXMock

/// A mocked API whose auth is a user's login answers the login's endpoints: the code flow with
/// its S256 challenge, the device flow, refresh, revocation; in memory.
@Suite("Mock login endpoints in memory")
struct MockLoginTests {
  static let registry = #"""
    {"api": "me", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}},
     "auth": {"type": "oauth2_authorization_code", "authorize_url": "/login", "token_url": "/token",
              "revocation_url": "/revoke", "client_id": "app"},
     "endpoints": {
       "me": {"kind": "rest", "path": "/me", "responses": {"200": {"content_type": "application/json", "examples": {"a": {"sub": "x"}}}}},
       "device": {"kind": "rest", "path": "/device-only", "auth": {"type": "oauth2_device_code",
         "device_authorization_url": "/device", "token_url": "/token", "client_id": "tv"}}
     }}
    """#
  static let verifier = String(repeating: "k", count: 43)
  static var challenge: String {
    Base64.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
      .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
  }

  static func mock() throws -> MockAPI {
    MockAPI(
      api: try RegistryLoader.load(Array(registry.utf8), file: "me.json"), options: MockOptions(), report: { _ in })
  }

  static func get(_ path: String, _ query: [(String, String)]) -> MockRequest {
    MockRequest(method: "GET", path: path, query: query.map { (name: $0.0, value: $0.1) }, headers: [], body: [])
  }

  static func post(_ path: String, _ form: String) -> MockRequest {
    MockRequest(
      method: "POST", path: path, query: [],
      headers: [(name: "content-type", value: "application/x-www-form-urlencoded")], body: Array(form.utf8))
  }

  static func json(_ answer: MockAnswer) throws -> JSONValue {
    guard case .bytes(let bytes) = answer.body else { return .null }
    return try JSONParser.parse(bytes)
  }

  @Test func theCodeFlowHoldsTheVerifierToItsChallengeAndCodesAreSpent() async throws {
    let mock = try Self.mock()
    let redirect = "http://127.0.0.1:9/cb"
    let approved = await mock.handle(
      Self.get(
        "/login",
        [
          ("response_type", "code"), ("client_id", "app"), ("redirect_uri", redirect), ("state", "s1"),
          ("code_challenge", Self.challenge), ("code_challenge_method", "S256"),
        ]))
    #expect(approved.status == 302)
    let location = try #require(approved.headers.first { $0.name == "location" }?.value)
    #expect(location.hasPrefix(redirect + "?code=mock-code-") && location.hasSuffix("&state=s1"), "\(location)")
    let code = String(location.split(separator: "=")[1].split(separator: "&")[0])
    let wrong = await mock.handle(
      Self.post("/token", "grant_type=authorization_code&code=\(code)&redirect_uri=\(redirect)&code_verifier=nope"))
    #expect(wrong.status == 400)
    #expect(try Self.json(wrong)["error"] == .string("invalid_grant"))
    let plain = await mock.handle(
      Self.get(
        "/login",
        [
          ("response_type", "code"), ("client_id", "app"), ("redirect_uri", redirect), ("code_challenge", "x"),
          ("code_challenge_method", "plain"),
        ]))
    #expect(plain.headers.first { $0.name == "location" }?.value.contains("error=invalid_request") == true)

    let again = await mock.handle(
      Self.get(
        "/login",
        [
          ("response_type", "code"), ("client_id", "app"), ("redirect_uri", redirect),
          ("code_challenge", Self.challenge), ("code_challenge_method", "S256"),
        ]))
    let second = try #require(again.headers.first { $0.name == "location" }?.value.split(separator: "=")[1])
    let exchange =
      "grant_type=authorization_code&code=\(second)&redirect_uri=\(redirect)&code_verifier=\(Self.verifier)"
    let granted = await mock.handle(Self.post("/token", exchange))
    #expect(granted.status == 200)
    let refresh = try #require(try Self.json(granted)["refresh_token"]?.stringValue)
    #expect(await mock.handle(Self.post("/token", exchange)).status == 400, "a code is good once")
    let refreshed = await mock.handle(Self.post("/token", "grant_type=refresh_token&refresh_token=\(refresh)"))
    #expect(refreshed.status == 200)
    #expect(await mock.handle(Self.post("/revoke", "token=\(refresh)")).status == 200)
  }

  @Test func theDeviceFlowIsPendingOnceThenGranted() async throws {
    let mock = try Self.mock()
    let started = await mock.handle(Self.post("/device", "client_id=tv&scope=read"))
    #expect(started.status == 200)
    let device = try #require(try Self.json(started)["device_code"]?.stringValue)
    let poll = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=\(device)"
    let pending = await mock.handle(Self.post("/token", poll))
    #expect(try Self.json(pending)["error"] == .string("authorization_pending"))
    #expect(await mock.handle(Self.post("/token", poll)).status == 200)
    #expect(await mock.handle(Self.post("/token", poll)).status == 400, "a device code gives one token")
  }

  @Test func clientCredentialsBesideALoginAtTheSameTokenPathAreAnsweredByTheirEndpoint() async throws {
    let text = #"""
      {"api": "both", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}},
       "auth": {"type": "oauth2_authorization_code", "authorize_url": "/authorize", "token_url": "/oauth/token", "client_id": "app"},
       "endpoints": {"admin": {"kind": "rest", "path": "/admin", "auth": {"type": "oauth2_client_credentials",
         "token_url": "/oauth/token", "client_id": "svc", "client_secret": "s"}}}}
      """#
    let mock = MockAPI(api: try RegistryLoader.load(Array(text.utf8), file: "both.json"), options: MockOptions()) { _ in
    }
    let machine = await mock.handle(
      Self.post("/oauth/token", "grant_type=client_credentials&client_id=svc&client_secret=s"))
    let said = try Self.json(machine)
    #expect(machine.status == 200, "\(said)")
    let unknown = await mock.handle(
      Self.post("/oauth/token", "grant_type=authorization_code&code=nope&code_verifier=x"))
    #expect(try Self.json(unknown)["error"] == .string("invalid_grant"))
  }

  @Test func aLoginKnownOnlyByItsIssuerIsNotServedAndTheMockSaysSo() throws {
    let text = #"""
      {"api": "idp", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}},
       "auth": {"type": "oauth2_authorization_code", "issuer": "https://id.example.com", "client_id": "c"},
       "endpoints": {"me": {"kind": "rest", "path": "/me"}}}
      """#
    let notes = NoteBox()
    _ = MockAPI(api: try RegistryLoader.load(Array(text.utf8), file: "idp.json"), options: MockOptions()) {
      notes.add($0)
    }
    #expect(notes.all.contains { $0.contains("serves no login") && $0.contains("authorize_url") }, "\(notes.all)")
  }
}

/// The notes a mock reports at start (some from its scan's task).
final class NoteBox: Sendable {
  private let notes = Mutex<[String]>([])
  func add(_ note: String) { notes.withLock { $0.append(note) } }
  var all: [String] { notes.withLock { $0 } }
}
