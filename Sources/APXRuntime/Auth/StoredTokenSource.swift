public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The token source of `apx call --dry-run` and `--curl`: the stored token when
/// it is still usable, and never a fetch (no token request, no token command),
/// because nothing may be sent or run. Without a usable token it answers
/// `placeholder` and remembers which API lacked one, for the caller to say how
/// to get one (`apx auth login API`).
public final class StoredTokenSource: TokenSource {
  /// What stands in for a token that is not stored (never a secret: it is not masked).
  public static let placeholder = "<no stored token>"

  let store: TokenStore?
  let environment: [String: String]
  private let missingTokens = Mutex<[(api: String, environment: String)]>([])

  /// A source that reads `store` (nil: nothing is stored, every token is missing).
  public init(store: TokenStore?, environment: [String: String]) {
    self.store = store
    self.environment = environment
  }

  /// The APIs (with their environment) for which no usable token was stored, in order asked.
  public var missing: [(api: String, environment: String)] { missingTokens.withLock { $0 } }

  public func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, forceRefresh: Bool
  ) async throws -> String {
    // The same origin check as a real call: a token stored for other settings is not used.
    let flow = try Flow.make(
      auth, api: api, environmentName: environment, baseURL: baseURL, environment: self.environment)
    if !forceRefresh, let token = try await store?.read(api: api.name, environment: environment),
      token.origin == flow.origin,
      token.isUsable(at: Date().timeIntervalSince1970)
    {
      return token.accessToken
    }
    missingTokens.withLock { list in
      if !list.contains(where: { $0.api == api.name && $0.environment == environment }) {
        list.append((api.name, environment))
      }
    }
    return Self.placeholder
  }
}
