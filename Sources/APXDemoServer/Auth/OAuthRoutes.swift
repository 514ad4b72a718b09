import Foundation
import HTTPTypes
import Hummingbird

/// `POST /oauth/token`: OAuth2 client credentials and refresh token grants (RFC 6749).
struct OAuthRoutes: Sendable {
  /// The demo client's credentials.
  static let clientID = "demo-client"
  static let clientSecret = "demo-secret"
  /// Scope granted when the request names none.
  static let defaultScope = "books:read books:write"

  let tokens: TokenStore
  let stats: StatsRecorder

  /// Adds the token route to `router`.
  func register(on router: Router<DemoRequestContext>) {
    router.post("oauth/token") { request, _ in await token(request) }
  }

  private func token(_ request: Request) async -> Response {
    stats.update { $0.tokenRequests += 1 }
    var request = request
    let form: [String: String]
    do {
      let body = try await request.collectBody(upTo: DemoLimits.maxFormBytes)
      form = Self.decodeForm(String(buffer: body))
    } catch {
      return oauthError(.badRequest, "invalid_request", "the form body is unreadable or larger than 64 KiB")
    }
    let basic = Self.basicCredentials(request.headers[.authorization])
    let clientID = basic?.id ?? form["client_id"]
    let clientSecret = basic?.secret ?? form["client_secret"]

    switch form["grant_type"] {
    case "client_credentials":
      guard clientID == Self.clientID, clientSecret == Self.clientSecret else {
        return invalidClient()
      }
      return granted(tokens.issue(scope: form["scope"] ?? Self.defaultScope))
    case "refresh_token":
      // A client that authenticates must do so correctly; public clients may omit credentials.
      if clientID != nil || clientSecret != nil, clientID != Self.clientID || clientSecret != Self.clientSecret {
        return invalidClient()
      }
      guard let refreshToken = form["refresh_token"] else {
        return oauthError(.badRequest, "invalid_request", "grant_type=refresh_token needs a refresh_token field")
      }
      guard let grant = tokens.refresh(refreshToken) else {
        return oauthError(.badRequest, "invalid_grant", "the refresh token is unknown or was already used")
      }
      return granted(grant)
    case nil:
      return oauthError(.badRequest, "invalid_request", "the form needs a grant_type field")
    case let other?:
      return oauthError(
        .badRequest, "unsupported_grant_type",
        "grant_type '\(other)' is not supported; use client_credentials or refresh_token")
    }
  }

  private func granted(_ grant: TokenStore.Grant) -> Response {
    stats.update { $0.tokensIssued += 1 }
    let lifetime = tokens.lifetime
    let expiresIn: JSONText =
      lifetime == lifetime.rounded() && abs(lifetime) < 1e15 ? .int(Int(lifetime)) : .double(lifetime)
    return DemoResponse.json(
      .object([
        ("access_token", .string(grant.accessToken)),
        ("token_type", .string("Bearer")),
        ("expires_in", expiresIn),
        ("refresh_token", .string(grant.refreshToken)),
        ("scope", .string(grant.scope)),
      ]),
      headers: [.cacheControl: "no-store"])
  }

  private func invalidClient() -> Response {
    oauthError(
      .unauthorized, "invalid_client", "unknown client_id or wrong client_secret",
      headers: [.wwwAuthenticate: "Basic realm=\"oauth\""])
  }

  private func oauthError(
    _ status: HTTPResponse.Status, _ code: String, _ description: String, headers: HTTPFields = [:]
  ) -> Response {
    DemoResponse.json(
      .object([("error", .string(code)), ("error_description", .string(description))]),
      status: status, headers: headers)
  }

  /// `application/x-www-form-urlencoded` pairs; later duplicates win.
  static func decodeForm(_ text: String) -> [String: String] {
    var form: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = formDecode(parts[0])
      let value = parts.count > 1 ? formDecode(parts[1]) : ""
      if !name.isEmpty { form[name] = value }
    }
    return form
  }

  private static func formDecode(_ text: Substring) -> String {
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }

  /// Client id and secret from `Authorization: Basic base64(id:secret)`.
  static func basicCredentials(_ header: String?) -> (id: String, secret: String)? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "basic",
      let data = Data(base64Encoded: String(parts[1]).trimmingCharacters()),
      let decoded = String(data: data, encoding: .utf8),
      let colon = decoded.firstIndex(of: ":")
    else { return nil }
    let id = String(decoded[..<colon]).removingPercentEncoding ?? String(decoded[..<colon])
    let secretText = String(decoded[decoded.index(after: colon)...])
    return (id, secretText.removingPercentEncoding ?? secretText)
  }
}
