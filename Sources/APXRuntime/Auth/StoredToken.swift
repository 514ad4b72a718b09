#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A token apx obtained for one API and environment, as kept in the token
/// store (a JSON file, mode 0600). Never printed: `apx auth status` shows
/// `summary(now:)`, which leaves the secrets out.
public struct StoredToken: Sendable, Codable, Hashable {
  /// The API's name.
  public var api: String
  /// The environment the token belongs to.
  public var environment: String
  /// The registry auth type that produced it (`oauth2_client_credentials`, `token_command`).
  public var type: String
  /// The access token: secret.
  public var accessToken: String
  /// `Bearer` unless the server said otherwise.
  public var tokenType: String
  /// A refresh token, when the server issued one: secret.
  public var refreshToken: String?
  /// When it was obtained, in seconds since 1970.
  public var obtainedAt: Double
  /// When it expires, in seconds since 1970; nil when unknown (used until the server refuses it).
  public var expiresAt: Double?
  /// The scopes granted, as the server reported them.
  public var scope: String?
  /// The OpenID Connect ID token a login gave, when the server sent one: secret. Its claims
  /// (subject, issuer, audience, expiry) are shown by `apx auth status`, unverified.
  public var idToken: String?
  /// Who the token is for (the OAuth2 client id, or the command's program): not secret.
  public var subject: String?
  /// What produced it (token URL + client id, or the command line): a stored token made
  /// with other settings is ignored. Holds no secret.
  public var origin: String

  /// Makes a stored token.
  public init(
    api: String, environment: String, type: String, accessToken: String, tokenType: String = "Bearer",
    refreshToken: String? = nil, obtainedAt: Double, expiresAt: Double?, scope: String? = nil, subject: String? = nil,
    origin: String
  ) {
    self.api = api
    self.environment = environment
    self.type = type
    self.accessToken = accessToken
    self.tokenType = tokenType
    self.refreshToken = refreshToken
    self.obtainedAt = obtainedAt
    self.expiresAt = expiresAt
    self.scope = scope
    self.subject = subject
    self.origin = origin
  }

  enum CodingKeys: String, CodingKey {
    case api, environment, type, scope, subject, origin
    case accessToken = "access_token"
    case tokenType = "token_type"
    case refreshToken = "refresh_token"
    case idToken = "id_token"
    case obtainedAt = "obtained_at"
    case expiresAt = "expires_at"
  }

  /// Every secret it holds (access, refresh and ID token), for masks.
  public var secrets: [String] { [accessToken, refreshToken, idToken].compactMap { $0 } }

  /// The most a token is refreshed ahead of its expiry.
  public static let maximumRefreshMargin = 30.0

  /// Seconds before expiry at which the token is replaced: 30 s, or a tenth
  /// of its lifetime for short-lived tokens (a 1 s token is used for 0.9 s).
  public var refreshMargin: Double {
    guard let expiresAt else { return 0 }
    return min(Self.maximumRefreshMargin, max(0, (expiresAt - obtainedAt) / 10))
  }

  /// Whether the token can still be sent at `now`: not within `refreshMargin` of its expiry.
  public func isUsable(at now: Double) -> Bool {
    guard let expiresAt else { return true }
    return now < expiresAt - refreshMargin
  }

  /// Whole seconds until expiry (negative once expired), nil when unknown.
  public func expiresIn(at now: Double) -> Int? {
    // Clamped: a token endpoint may answer `"expires_in": 1e300`, and Int(1e300) traps.
    expiresAt.map { at in
      let left = (at - now).rounded(.down)
      return left.isNaN ? 0 : Int(Swift.max(Swift.min(left, 1e15), -1e15))
    }
  }
}
