public import APXCore

/// The credentials the auth layer chose for one attempt, and the only way a
/// transport gets at them: it asks them to sign its request (HTTP headers,
/// query or path) or to give the metadata to send (gRPC), and never learns
/// whether a token was cached, fetched or refreshed.
public struct Credentials: Sendable {
  let applier: AuthApplier
  let auth: AuthConfig
  let api: APIDefinition
  let environmentName: String
  let baseURL: String
  /// The token the server refused: get a new one unless another call already did.
  var rejectedToken: String?

  /// Credentials for `request`, as its API or endpoint declares them.
  init(applier: AuthApplier, request: CallRequest) {
    self.applier = applier
    self.auth = AuthApplier.effective(api: request.api, endpoint: request.endpoint)
    self.api = request.api
    self.environmentName = request.environmentName
    self.baseURL = request.baseURL
  }

  /// Whether asking again can give other credentials (a token from a server or a
  /// command, and no `--token-stdin` override).
  var canRefresh: Bool { applier.tokenOverride == nil && AuthApplier.isRefreshable(auth) }

  /// Adds the credentials to an HTTP request and registers their secrets with `mask`.
  public func apply(to plan: inout HTTPRequestPlan, mask: inout SecretMask) async throws {
    try await applier.apply(
      auth, to: &plan, mask: &mask, api: api, environmentName: environmentName, baseURL: baseURL,
      rejectedToken: rejectedToken)
  }

  /// The metadata that carries the credentials (lower-case names), for transports
  /// without an HTTP request of their own (gRPC).
  public func metadata(mask: inout SecretMask) async throws -> [HeaderField] {
    try await applier.authorization(
      auth, mask: &mask, api: api, environmentName: environmentName, baseURL: baseURL, rejectedToken: rejectedToken)
  }
}
