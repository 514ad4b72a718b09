/// How an API (or one endpoint) authenticates. String fields may hold
/// `${env:NAME}` templates, resolved only when a call needs them.
public indirect enum AuthConfig: Sendable, Hashable {
  /// No auth (also switches an API's auth off for one endpoint).
  case none
  case bearer(token: String)
  case apiKey(location: APIKeyLocation, name: String, value: String)
  case basic(username: String, password: String)
  case oauth2ClientCredentials(OAuth2Config)
  /// A user's login (`oauth2_authorization_code`, `oauth2_device_code`): `apx auth login` runs
  /// it once, and calls refresh its token silently.
  case oauth2Login(OAuth2LoginConfig)
  /// Runs `command` and uses its output (trimmed) as a bearer token.
  case tokenCommand(command: [String], lifetime: Double?)
  /// The token of `token` (a bearer, OAuth2 or `token_command` token, or an API key) offered
  /// as the WebSocket subprotocol `prefix + token` instead of a header (`"in": "subprotocol"`).
  /// The token is fetched, cached and refreshed as `token` says.
  case subprotocol(prefix: String, token: AuthConfig)

  /// The `{name}` path placeholder an `api_key` auth with `"in": "path"` fills.
  var pathPlaceholder: String? {
    if case .apiKey(.path, let name, _) = self { return name }
    return nil
  }

  /// The registry's `type` string for this case.
  public var typeName: String {
    switch self {
    case .none: "none"
    case .bearer: "bearer"
    case .apiKey: "api_key"
    case .basic: "basic"
    case .oauth2ClientCredentials: "oauth2_client_credentials"
    case .oauth2Login(let c): c.grant.typeName
    case .tokenCommand: "token_command"
    case .subprotocol(_, let token): token.typeName
    }
  }

  /// Whether this is a user's login (`oauth2_authorization_code`, `oauth2_device_code`), which
  /// only `apx auth login` starts.
  public var isUserLogin: Bool {
    switch self {
    case .oauth2Login: true
    case .subprotocol(_, let token): token.isUserLogin
    default: false
    }
  }

  /// The prefix of an auth carried in a WebSocket subprotocol, else nil.
  public var subprotocolPrefix: String? {
    if case .subprotocol(let prefix, _) = self { return prefix }
    return nil
  }
}

/// Where an API key goes.
public enum APIKeyLocation: String, Sendable, Hashable, CaseIterable {
  case header, query, path
}

/// OAuth2 client-credentials settings.
public struct OAuth2Config: Sendable, Hashable {
  /// Absolute, or relative to the environment's base URL.
  public var tokenURL: String
  public var clientID: String
  public var clientSecret: String
  public var scopes: [String]
  public var audience: String?
  /// Extra form fields sent with the token request.
  public var extraFields: [HeaderField]
  /// How the client authenticates to the token endpoint.
  public var clientAuth: OAuth2ClientAuth

  public init(
    tokenURL: String, clientID: String, clientSecret: String, scopes: [String] = [], audience: String? = nil,
    extraFields: [HeaderField] = [], clientAuth: OAuth2ClientAuth = .body
  ) {
    self.tokenURL = tokenURL
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.audience = audience
    self.extraFields = extraFields
    self.clientAuth = clientAuth
  }
}

/// How a user logs in: in a browser, or on another device with a code.
public enum OAuth2LoginGrant: Sendable, Hashable {
  /// RFC 6749 §4.1 with PKCE (RFC 7636), redirected to a listener on 127.0.0.1 (RFC 8252).
  /// `redirectPort` fixes the listener's port (a client registered with one exact redirect
  /// URI); nil takes a free one. `redirectPath` is the redirect URI's path.
  case authorizationCode(authorizeURL: String?, redirectPort: Int?, redirectPath: String)
  /// RFC 8628: the user enters a code at the server's verification page.
  case deviceCode(deviceAuthorizationURL: String?)

  /// The registry's `type` string.
  public var typeName: String {
    switch self {
    case .authorizationCode: "oauth2_authorization_code"
    case .deviceCode: "oauth2_device_code"
    }
  }
}

/// The settings of a user's OAuth2 login. Endpoints not given are read from the `issuer`'s
/// OpenID Connect discovery document; string fields may hold `${env:NAME}`.
public struct OAuth2LoginConfig: Sendable, Hashable {
  public var grant: OAuth2LoginGrant
  /// The OpenID Connect issuer, whose `/.well-known/openid-configuration` fills in endpoints.
  public var issuer: String?
  /// Absolute, or relative to the environment's base URL; nil: from discovery.
  public var tokenURL: String?
  /// RFC 7009 revocation endpoint for `apx auth logout`; nil: from discovery, else none.
  public var revocationURL: String?
  public var clientID: String
  /// A confidential client's secret; nil for a public client (a native app's usual case).
  public var clientSecret: String?
  public var scopes: [String]
  public var audience: String?
  /// Extra parameters of the authorization (or device authorization) request.
  public var extraParams: [HeaderField]
  /// How a confidential client authenticates to the token endpoint.
  public var clientAuth: OAuth2ClientAuth

  public init(
    grant: OAuth2LoginGrant, issuer: String? = nil, tokenURL: String? = nil, revocationURL: String? = nil,
    clientID: String, clientSecret: String? = nil, scopes: [String] = [], audience: String? = nil,
    extraParams: [HeaderField] = [], clientAuth: OAuth2ClientAuth = .body
  ) {
    self.grant = grant
    self.issuer = issuer
    self.tokenURL = tokenURL
    self.revocationURL = revocationURL
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.audience = audience
    self.extraParams = extraParams
    self.clientAuth = clientAuth
  }
}

/// Client authentication at an OAuth2 token endpoint (RFC 6749 §2.3.1).
public enum OAuth2ClientAuth: String, Sendable, Hashable, CaseIterable {
  /// `client_id` and `client_secret` as form fields (`client_secret_post`).
  case body
  /// `Authorization: Basic` of the form-encoded id and secret (`client_secret_basic`).
  case basic
}

/// Retry settings as written in a registry; unset fields inherit.
public struct RetryConfig: Sendable, Hashable {
  public var maxAttempts: Int?
  public var initialDelay: Double?
  public var multiplier: Double?
  public var maxDelay: Double?
  public var jitter: Bool?
  public var onStatus: [Int]?
  /// gRPC status names to retry (default UNAVAILABLE).
  public var onGRPCCodes: [String]?

  public init(
    maxAttempts: Int? = nil, initialDelay: Double? = nil, multiplier: Double? = nil, maxDelay: Double? = nil,
    jitter: Bool? = nil, onStatus: [Int]? = nil, onGRPCCodes: [String]? = nil
  ) {
    self.maxAttempts = maxAttempts
    self.initialDelay = initialDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.onStatus = onStatus
    self.onGRPCCodes = onGRPCCodes
  }

  /// Fields set here win over `base`.
  public func overriding(_ base: RetryConfig?) -> RetryConfig {
    guard let base else { return self }
    return RetryConfig(
      maxAttempts: maxAttempts ?? base.maxAttempts, initialDelay: initialDelay ?? base.initialDelay,
      multiplier: multiplier ?? base.multiplier, maxDelay: maxDelay ?? base.maxDelay, jitter: jitter ?? base.jitter,
      onStatus: onStatus ?? base.onStatus, onGRPCCodes: onGRPCCodes ?? base.onGRPCCodes)
  }
}
