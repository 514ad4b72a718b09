public import APXCore

/// Supplies bearer tokens for auth types that must fetch them (OAuth2 client
/// credentials, `token_command`). One source serves a whole run, so
/// concurrent calls can share one refresh. `TokenManager` is the real one;
/// REST, SSE and gRPC transports all ask it the same way.
public protocol TokenSource: Sendable {
  /// A valid token for `api` in `environment`; `forceRefresh` fetches a new
  /// one even when the stored one looks valid (`apx auth login`).
  func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, forceRefresh: Bool
  ) async throws -> String

  /// A valid token after the server refused `rejected` (HTTP 401, gRPC
  /// UNAUTHENTICATED): a new one, unless another call already replaced it,
  /// so that many calls failing together still cause one token request.
  func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, rejected: String
  ) async throws -> String
}

extension TokenSource {
  /// Sources that keep no shared state simply fetch a new token.
  public func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, rejected: String
  ) async throws -> String {
    try await token(for: auth, api: api, environment: environment, baseURL: baseURL, forceRefresh: true)
  }
}
