import APXCore

extension Executor {
  /// What `call(_:sink:)` (or, for several requests, `call(batch:sink:)`) would send, built by
  /// the same code as its first attempt (the kind's `CallRoute.preview`). Nothing is sent: make
  /// the executor with a `StoredTokenSource` so no token is fetched either, and a gRPC schema
  /// from server reflection is not asked for (the message is then built from the names as
  /// written).
  public func preview(_ requests: [CallRequest]) async throws -> RequestPreview {
    guard let request = requests.first else { throw APXError(.usage, "a batch needs at least one call") }
    let credentials = Credentials(applier: auth, request: request)
    return try await TransportCatalog.route(for: request.endpoint.kind).preview(
      requests, executor: self, credentials: credentials)
  }
}
