import Synchronization

/// Issued OAuth2 tokens: random access tokens that expire, and refresh tokens that rotate.
final class TokenStore: Sendable {
  /// A grant handed to a client.
  struct Grant: Sendable {
    let accessToken: String
    let refreshToken: String
    let scope: String
  }

  private struct State {
    var accessTokens: [String: ContinuousClock.Instant] = [:]
    var accessScopes: [String: String] = [:]  // access token -> scope
    var refreshTokens: [String: String] = [:]  // refresh token -> scope
  }

  /// Seconds an access token stays valid.
  let lifetime: Double
  private let state = Mutex(State())
  private let clock = ContinuousClock()

  init(lifetime: Double) {
    self.lifetime = lifetime
  }

  /// Issues a new access token and refresh token for `scope`.
  func issue(scope: String) -> Grant {
    let grant = Grant(accessToken: Self.randomToken(), refreshToken: Self.randomToken(), scope: scope)
    let expiry = clock.now.advanced(by: .seconds(max(0, lifetime)))
    state.withLock { state in
      state.accessTokens[grant.accessToken] = expiry
      state.accessScopes[grant.accessToken] = scope
      state.refreshTokens[grant.refreshToken] = scope
    }
    return grant
  }

  /// Exchanges a refresh token for a new grant (the old refresh token stops working); nil if unknown.
  func refresh(_ refreshToken: String) -> Grant? {
    let scope = state.withLock { $0.refreshTokens.removeValue(forKey: refreshToken) }
    return scope.map { issue(scope: $0) }
  }

  /// The scope an access token was issued for, or nil.
  func scope(ofAccessToken token: String) -> String? { state.withLock { $0.accessScopes[token] } }

  /// Revokes an access or refresh token (RFC 7009); an unknown one is no error.
  func revoke(_ token: String) {
    state.withLock { state in
      state.accessTokens[token] = nil
      state.accessScopes[token] = nil
      state.refreshTokens[token] = nil
    }
  }

  /// True when `token` was issued here and has not expired.
  func isValid(accessToken token: String) -> Bool {
    let now = clock.now
    return state.withLock { state in
      guard let expiry = state.accessTokens[token] else { return false }
      if now >= expiry {
        state.accessTokens[token] = nil
        return false
      }
      return true
    }
  }

  /// Makes every access token expire now (refresh tokens keep working), for expiry tests.
  func expireAll() -> Int {
    state.withLock { state in
      defer { state.accessTokens.removeAll() }
      return state.accessTokens.count
    }
  }

  /// 32 random bytes as hex.
  private static func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    var text = ""
    for _ in 0..<4 {
      let hex = String(generator.next() as UInt64, radix: 16)
      text += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return text
  }
}
