import Synchronization

/// The OAuth2 tokens one `apx mock` run issued, shared by its APIs and its gRPC server: an
/// access token expires a set number of seconds after it was issued; a refresh token stays
/// good for the run. Tokens it did not issue are none of its business (auth is checked in form).
public final class MockTokens: Sendable {
  private struct State {
    var expiries: [String: ContinuousClock.Instant] = [:]
    var refreshTokens: Set<String> = []
    var issued = 0
  }

  private let state = Mutex(State())
  private let clock = ContinuousClock()

  public init() {}

  /// A new access token good for `lifetime` seconds, and a refresh token for it.
  func issue(lifetime: Int) -> (access: String, refresh: String) {
    let expiry = clock.now + .seconds(lifetime)
    return state.withLock { state in
      state.issued += 1
      let tag = String(state.issued) + "." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      let tokens = (access: "mock-at-" + tag, refresh: "mock-rt-" + tag)
      state.expiries[tokens.access] = expiry
      state.refreshTokens.insert(tokens.refresh)
      return tokens
    }
  }

  /// Whether this run issued `refreshToken`.
  func knows(refreshToken: String) -> Bool { state.withLock { $0.refreshTokens.contains(refreshToken) } }

  /// Whether `accessToken` is one this run issued and its lifetime has passed.
  public func hasExpired(_ accessToken: String) -> Bool {
    guard let expiry = state.withLock({ $0.expiries[accessToken] }) else { return false }
    return clock.now >= expiry
  }
}
