import APXServing
import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `POST /oauth/token`: OAuth2 client credentials and refresh token grants (RFC 6749), and the
/// authorization code (with PKCE) and device code grants of a user's login (`LoginRoutes`).
struct OAuthRoutes: Sendable {
  /// The demo client's credentials.
  static let clientID = "demo-client"
  static let clientSecret = "demo-secret"
  /// Scope granted when the request names none.
  static let defaultScope = "books:read books:write"

  let tokens: TokenStore
  let stats: StatsRecorder
  let logins: LoginGrants

  /// Adds the token route to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.post("oauth/token") { request, _ in await token(request) }
  }

  /// HTTP/1.0 caches' `Pragma`, which RFC 6749 §5.1 asks for beside Cache-Control.
  static let pragma = HTTPField.Name("Pragma")!

  /// Scopes the demo client may ask for.
  static let knownScopes: Set<Substring> = ["books:read", "books:write"]

  /// Checks the request as a real authorization server does (RFC 6749 §2.3, §3.2, §4.4.2, §5.2), so
  /// a client that sends what a real one would refuse fails here too.
  private func token(_ request: Request) async -> Response {
    stats.update { $0.tokenRequests += 1 }
    let type = request.headers[.contentType]
    guard let type, Self.isForm(type) else {
      return oauthError(
        .badRequest, "invalid_request",
        "the token request must be a form (Content-Type: application/x-www-form-urlencoded), got "
          + (type.map { "'\($0)'" } ?? "no Content-Type"))
    }
    var request = request
    let pairs: [(String, String)]
    do {
      let body = try await request.collectBody(upTo: DemoLimits.maxFormBytes)
      pairs = Self.decodePairs(String(buffer: body))
    } catch {
      return oauthError(.badRequest, "invalid_request", "the form body is unreadable or larger than 64 KiB")
    }
    var form: [String: String] = [:]
    for (name, value) in pairs {
      // §3.2: "Request and response parameters MUST NOT be included more than once."
      guard form.updateValue(value, forKey: name) == nil else {
        return oauthError(.badRequest, "invalid_request", "the parameter '\(name)' is repeated")
      }
    }
    let authorization = request.headers[.authorization]
    let basic = Self.basicCredentials(authorization)
    if authorization != nil, basic == nil {
      return invalidClient("the Authorization header is not valid Basic client authentication (RFC 6749 section 2.3.1)")
    }
    if basic != nil, form["client_secret"] != nil {
      return oauthError(
        .badRequest, "invalid_request", "use one client authentication method: Basic or client_secret, not both")
    }
    if let basic, let id = form["client_id"], id != basic.id {
      return oauthError(.badRequest, "invalid_request", "client_id in the form differs from the Basic user name")
    }
    let clientID = basic?.id ?? form["client_id"]
    let clientSecret = basic?.secret ?? form["client_secret"]

    switch form["grant_type"] {
    case "client_credentials":
      guard clientID != nil, clientSecret != nil else {
        return invalidClient("client authentication is required: Basic, or client_id and client_secret in the form")
      }
      guard clientID == Self.clientID, clientSecret == Self.clientSecret else {
        return invalidClient("unknown client_id or wrong client_secret")
      }
      let requested = form["scope"].map { $0.split(separator: " ") } ?? []
      if let unknown = requested.first(where: { !Self.knownScopes.contains($0) }) {
        return oauthError(
          .badRequest, "invalid_scope",
          "the scope '\(unknown)' is unknown; this client may ask for \(Self.knownScopes.sorted().joined(separator: ", "))"
        )
      }
      return granted(tokens.issue(scope: form["scope"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultScope))
    case "authorization_code", "urn:ietf:params:oauth:grant-type:device_code":
      // The login client is public: it names itself and holds no secret (RFC 6749 §2.1).
      guard clientID == LoginGrants.clientID, clientSecret == nil else {
        return invalidClient("a user's login uses the public client \(LoginGrants.clientID), without a secret")
      }
      let redeemed: Result<String, DemoLoginRefusal>
      if form["grant_type"] == "authorization_code" {
        guard let code = form["code"] else {
          return oauthError(.badRequest, "invalid_request", "grant_type=authorization_code needs a code field")
        }
        redeemed = logins.redeem(code: code, redirectURI: form["redirect_uri"], verifier: form["code_verifier"])
      } else {
        guard let device = form["device_code"] else {
          return oauthError(.badRequest, "invalid_request", "the device code grant needs a device_code field")
        }
        redeemed = logins.poll(device: device)
      }
      switch redeemed {
      case .success(let scope): return granted(tokens.issue(scope: scope))
      case .failure(let refusal): return oauthError(.badRequest, refusal.code, refusal.description)
      }
    case "refresh_token":
      // A client that authenticates must do so correctly; public clients may omit credentials.
      let isPublic = clientID == LoginGrants.clientID && clientSecret == nil
      if !isPublic, clientID != nil || clientSecret != nil,
        clientID != Self.clientID || clientSecret != Self.clientSecret
      {
        return invalidClient("unknown client_id or wrong client_secret")
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
        "grant_type '\(other)' is not supported; use client_credentials, authorization_code, the device code grant "
          + "or refresh_token")
    }
  }

  /// `application/x-www-form-urlencoded`, with or without parameters such as a charset.
  static func isForm(_ contentType: String) -> Bool {
    let media = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return media.trimmingSpaces().lowercased() == "application/x-www-form-urlencoded"
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
      headers: [.cacheControl: "no-store", Self.pragma: "no-cache"])
  }

  private func invalidClient(_ description: String) -> Response {
    oauthError(.unauthorized, "invalid_client", description, headers: [.wwwAuthenticate: "Basic realm=\"oauth\""])
  }

  private func oauthError(
    _ status: HTTPResponse.Status, _ code: String, _ description: String, headers: HTTPFields = [:]
  ) -> Response {
    Self.error(status, code, description, headers: headers)
  }

  /// An OAuth2 error answer (RFC 6749 §5.2), never cached.
  static func error(
    _ status: HTTPResponse.Status, _ code: String, _ description: String, headers: HTTPFields = [:]
  ) -> Response {
    // §5.1/§5.2: token responses, errors included, are never cached.
    var headers = headers
    headers[.cacheControl] = "no-store"
    headers[Self.pragma] = "no-cache"
    return DemoResponse.json(
      .object([("error", .string(code)), ("error_description", .string(description))]),
      status: status, headers: headers)
  }

  /// `text` form-encoded: unreserved characters as they are, every other byte as `%XX`.
  static func formEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if c.isASCII, c.isLetter || c.isNumber || "-._~".contains(c) {
        out.append(c)
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }

  /// `application/x-www-form-urlencoded` pairs in order; empty names are dropped.
  static func decodePairs(_ text: String) -> [(String, String)] {
    text.split(separator: "&").compactMap { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = formDecode(parts[0])
      return name.isEmpty ? nil : (name, parts.count > 1 ? formDecode(parts[1]) : "")
    }
  }

  /// `%XX` escapes decoded; nil when one is malformed or the bytes are not UTF-8 (as
  /// Foundation's `removingPercentEncoding`, which FoundationEssentials lacks).
  static func percentDecoded(_ text: some StringProtocol) -> String? {
    var bytes: [UInt8] = []
    var utf8 = text.utf8.makeIterator()
    while let b = utf8.next() {
      guard b == UInt8(ascii: "%") else {
        bytes.append(b)
        continue
      }
      guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func formDecode(_ text: Substring) -> String {
    let spaced = text.replacing("+", with: " ")
    return percentDecoded(spaced) ?? String(spaced)
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
    // §2.3.1: both halves are form-encoded before they are joined and base64-encoded.
    return (formDecode(decoded[..<colon]), formDecode(decoded[decoded.index(after: colon)...]))
  }
}
