import GRPCCore

/// Requires `authorization: Bearer <token>` metadata on the ClassNotes API's calls.
///
/// Tokens are checked by a closure the caller injects, so the tokens the HTTP demo server hands
/// out through OAuth2 work for gRPC too. Server reflection stays open, as on most real servers, so
/// a client can discover the schema before it has a token.
struct BearerAuthInterceptor: ServerInterceptor {
  /// Decides whether a bearer token (without the `Bearer ` prefix) is currently valid.
  typealias TokenValidator = @Sendable (String) -> Bool

  private let validateToken: TokenValidator
  /// Fully-qualified names of the services that need no token.
  private let openServices: Set<String>

  /// Creates an interceptor checking tokens with `validateToken`, except for `openServices`.
  init(validateToken: @escaping TokenValidator, openServices: Set<String>) {
    self.validateToken = validateToken
    self.openServices = openServices
  }

  func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next:
      @Sendable (StreamingServerRequest<Input>, ServerContext) async throws ->
      StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    if self.openServices.contains(context.descriptor.service.fullyQualifiedService) {
      return try await next(request, context)
    }
    guard let header = request.metadata.firstString("authorization") else {
      return StreamingServerResponse(
        error: RPCError(
          code: .unauthenticated,
          message:
            "Missing 'authorization' metadata: send 'authorization: Bearer <token>' "
            + "(get a token from the demo server's /oauth/token endpoint)."
        )
      )
    }
    let prefix = "bearer "
    guard header.count > prefix.count, header.lowercased().hasPrefix(prefix) else {
      return StreamingServerResponse(
        error: RPCError(
          code: .unauthenticated,
          message: "The 'authorization' metadata must have the form 'Bearer <token>'."
        )
      )
    }
    let token = String(header.dropFirst(prefix.count))
    guard self.validateToken(token) else {
      return StreamingServerResponse(
        error: RPCError(
          code: .unauthenticated,
          message: "The bearer token is unknown or has expired: request a new token."
        )
      )
    }
    return try await next(request, context)
  }
}
