import GRPCCore

/// What a mocked API's auth asks of a call, checked in form and not in value: the metadata
/// entry must be there (with the scheme, when one is named), whatever the token.
public struct GRPCMockAuth: Sendable, Hashable {
  /// The metadata entry, lower case (`authorization`, or an API key's name).
  public var metadataName: String
  /// The scheme the value starts with (`Bearer`, `Basic`), or nil for a bare key.
  public var scheme: String?

  /// Makes a requirement.
  public init(metadataName: String, scheme: String? = nil) {
    self.metadataName = metadataName.lowercased()
    self.scheme = scheme
  }

  /// Why `metadata` does not satisfy this, or nil when it does.
  func problem(_ metadata: Metadata) -> String? {
    guard let value = metadata[stringValues: metadataName].first(where: { _ in true }) else {
      return "missing '\(metadataName)' metadata: send '\(metadataName): \(scheme.map { $0 + " " } ?? "")<any token>'"
    }
    guard let scheme else { return value.isEmpty ? "the '\(metadataName)' metadata is empty" : nil }
    let prefix = scheme.lowercased() + " "
    guard value.count > prefix.count, value.lowercased().hasPrefix(prefix) else {
      return "the '\(metadataName)' metadata must have the form '\(scheme) <token>'"
    }
    return nil
  }
}

/// Refuses calls without their service's auth metadata with `UNAUTHENTICATED`; services
/// without auth (server reflection among them) stay open.
struct GRPCMockAuthInterceptor: ServerInterceptor {
  let byService: [String: GRPCMockAuth]

  func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next:
      @Sendable (StreamingServerRequest<Input>, ServerContext) async throws ->
      StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    if let auth = byService[context.descriptor.service.fullyQualifiedService],
      let problem = auth.problem(request.metadata)
    {
      return StreamingServerResponse(error: RPCError(code: .unauthenticated, message: "apx mock: " + problem))
    }
    return try await next(request, context)
  }
}
