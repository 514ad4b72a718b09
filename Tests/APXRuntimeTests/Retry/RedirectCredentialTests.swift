import APXCore
import Testing

@testable import APXRuntime

/// Credentials never follow a redirect to another origin.
@Suite struct RedirectCredentialTests {
  static let plan = HTTPRequestPlan(
    method: "GET", url: "http://127.0.0.1:8080/api/v2/items?x=1",
    headers: [
      HeaderField("Authorization", "Bearer secret-token"), HeaderField("Cookie", "session=abc"),
      HeaderField("Proxy-Authorization", "Basic eA=="), HeaderField("Accept", "application/json"),
    ])

  @Test func aCrossOriginRedirectDropsAuthorizationAndCookies() throws {
    let next = try RESTCall.redirected(Self.plan, status: 302, location: "http://127.0.0.1:9090/elsewhere")
    #expect(next.url == "http://127.0.0.1:9090/elsewhere")
    #expect(next.header("Authorization") == nil)
    #expect(next.header("Cookie") == nil)
    #expect(next.header("Proxy-Authorization") == nil)
    #expect(next.header("Accept") == "application/json")
  }

  @Test func aSchemeChangeIsAnotherOrigin() throws {
    let next = try RESTCall.redirected(Self.plan, status: 307, location: "https://127.0.0.1:8080/api/v2/items")
    #expect(next.header("Authorization") == nil)
  }

  @Test func aSameOriginRedirectKeepsThem() throws {
    let next = try RESTCall.redirected(Self.plan, status: 301, location: "/api/v3/items")
    #expect(next.url == "http://127.0.0.1:8080/api/v3/items")
    #expect(next.header("Authorization") == "Bearer secret-token")
    #expect(next.header("Cookie") == "session=abc")
  }

  /// Every credential leaves with the origin: the registry's API-key header
  /// (named on the plan by the auth step), `-H` credentials by their names, not other headers.
  @Test func aCrossOriginRedirectDropsAPIKeyHeadersAndCredentialHeaders() throws {
    var plan = HTTPRequestPlan(
      method: "GET", url: "http://127.0.0.1:8080/api",
      headers: [
        HeaderField("X-Demo-Pass", "key-4711"), HeaderField("X-Goog-Api-Key", "g"), HeaderField("X-Vault-Token", "v"),
        HeaderField("Idempotency-Key", "i"), HeaderField("X-Trace", "t"),
      ])
    plan.credentialHeaders = ["x-demo-pass"]
    let away = try RESTCall.redirected(plan, status: 307, location: "http://localhost:8080/api")
    #expect(away.headers.map(\.name) == ["Idempotency-Key", "X-Trace"])
    let home = try RESTCall.redirected(plan, status: 307, location: "/other")
    #expect(home.headers.count == 5)
  }
}
