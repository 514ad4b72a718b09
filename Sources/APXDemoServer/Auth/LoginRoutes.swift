import APXServing
import HTTPTypes
import Hummingbird

/// A user's login on the demo: `GET /oauth/authorize` (the authorization code flow with PKCE,
/// RFC 6749 §4.1 and RFC 7636) and `POST /oauth/device_authorization` (RFC 8628) for the
/// public client `demo-app`, and `POST /oauth/revoke` (RFC 7009). The demo's user is always
/// signed in and approves every request, so its login page is a redirect; everything a real
/// server checks it checks (the client, a loopback redirect URI, an S256 challenge, scopes).
struct LoginRoutes: Sendable {
  let logins: LoginGrants
  let tokens: TokenStore

  func register(on router: Router<ServerRequestContext>) {
    router.get("oauth/authorize") { request, _ in authorize(request) }
    router.post("oauth/device_authorization") { request, _ in await deviceAuthorization(request) }
    router.post("oauth/revoke") { request, _ in await revoke(request) }
    router.get("oauth/device") { _, _ in
      page(.ok, "the demo's user enters every device code by itself: return to the terminal")
    }
  }

  /// Adds `GET /api/v2/me`: whom the token is for. It checks the token itself, whether or not
  /// the demo requires auth of its other routes (`--no-auth`).
  func registerMe(on api: RouterGroup<ServerRequestContext>) {
    api.get("me") { request, _ in
      let parts = (request.headers[.authorization] ?? "").split(separator: " ", maxSplits: 1)
      let token = parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : ""
      guard tokens.isValid(accessToken: token) else {
        throw DemoError(
          status: .unauthorized, code: "invalid_token",
          message: "GET /api/v2/me needs a valid access token from a login (apx auth login account)",
          headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
      }
      return DemoResponse.json(
        .object([
          ("sub", .string("demo-user")), ("name", .string("Demo User")),
          ("scope", .string(tokens.scope(ofAccessToken: token) ?? "")),
        ]))
    }
  }

  private func authorize(_ request: Request) -> Response {
    // §4.1.2.1: an unknown client or a bad redirect URI is told to the user, never redirected.
    guard request.query("client_id") == LoginGrants.clientID else {
      return page(.badRequest, "unknown client_id: the demo's login client is \(LoginGrants.clientID)")
    }
    guard let redirect = request.query("redirect_uri"), Self.isLoopback(redirect) else {
      return page(
        .badRequest,
        "redirect_uri must be a loopback URI, http://127.0.0.1:PORT/PATH or http://[::1]:PORT/PATH (RFC 8252)")
    }
    let state = request.query("state")
    func refuse(_ code: String, _ description: String) -> Response {
      Self.redirect(
        redirect, [("error", code), ("error_description", description)] + (state.map { [("state", $0)] } ?? []))
    }
    guard request.query("response_type") == "code" else {
      return refuse("unsupported_response_type", "the demo's login client uses response_type=code")
    }
    guard let challenge = request.query("code_challenge"), request.query("code_challenge_method") == "S256" else {
      return refuse("invalid_request", "a public client must send code_challenge with code_challenge_method=S256")
    }
    let scope = request.query("scope") ?? "books:read"
    if let unknown = scope.split(separator: " ").first(where: { !LoginGrants.knownScopes.contains($0) }) {
      return refuse("invalid_scope", "the scope '\(unknown)' is unknown")
    }
    let code = logins.issueCode(challenge: challenge, redirectURI: redirect, scope: scope)
    return Self.redirect(redirect, [("code", code)] + (state.map { [("state", $0)] } ?? []))
  }

  private func deviceAuthorization(_ request: Request) async -> Response {
    var request = request
    guard let body = try? await request.collectBody(upTo: DemoLimits.maxFormBytes) else {
      return OAuthRoutes.error(.badRequest, "invalid_request", "the form body is unreadable or larger than 64 KiB")
    }
    let form = Dictionary(OAuthRoutes.decodePairs(String(buffer: body))) { first, _ in first }
    guard form["client_id"] == LoginGrants.clientID else {
      return OAuthRoutes.error(.unauthorized, "invalid_client", "the demo's device client is \(LoginGrants.clientID)")
    }
    let scope = form["scope"] ?? "books:read"
    if let unknown = scope.split(separator: " ").first(where: { !LoginGrants.knownScopes.contains($0) }) {
      return OAuthRoutes.error(.badRequest, "invalid_scope", "the scope '\(unknown)' is unknown")
    }
    let (device, user) = logins.issueDevice(scope: scope)
    let host = request.head.authority ?? "127.0.0.1"
    return DemoResponse.json(
      .object([
        ("device_code", .string(device)), ("user_code", .string(user)),
        ("verification_uri", .string("http://\(host)/oauth/device")),
        ("expires_in", .int(Int(LoginGrants.deviceLifetime))), ("interval", .int(1)),
      ]),
      headers: [.cacheControl: "no-store"])
  }

  private func revoke(_ request: Request) async -> Response {
    var request = request
    guard let body = try? await request.collectBody(upTo: DemoLimits.maxFormBytes) else {
      return OAuthRoutes.error(.badRequest, "invalid_request", "the form body is unreadable or larger than 64 KiB")
    }
    let form = Dictionary(OAuthRoutes.decodePairs(String(buffer: body))) { first, _ in first }
    guard let token = form["token"] else {
      return OAuthRoutes.error(.badRequest, "invalid_request", "the form needs a token field (RFC 7009)")
    }
    // §2.2: 200 whether or not the token was valid.
    tokens.revoke(token)
    return DemoResponse.empty(.ok)
  }

  /// `http://127.0.0.1:PORT/PATH` or `http://[::1]:PORT/PATH`, any port (RFC 8252 §7.3).
  static func isLoopback(_ uri: String) -> Bool {
    for host in ["http://127.0.0.1:", "http://[::1]:"] where uri.hasPrefix(host) {
      let rest = uri.dropFirst(host.count)
      let port = rest.prefix { $0.isNumber }
      guard !port.isEmpty, let number = Int(port), (1...65_535).contains(number) else { return false }
      let path = rest.dropFirst(port.count)
      return path.hasPrefix("/") && !path.contains("#")
    }
    return false
  }

  static func redirect(_ uri: String, _ query: [(String, String)]) -> Response {
    let encoded = query.map { "\($0.0)=\(OAuthRoutes.formEncode($0.1))" }.joined(separator: "&")
    let location = uri + (uri.contains("?") ? "&" : "?") + encoded
    return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
  }

  private func page(_ status: HTTPResponse.Status, _ text: String) -> Response {
    DemoResponse.text("apx demo login: \(text)\n", contentType: "text/plain; charset=utf-8", status: status)
  }
}
