import APXServing
import HTTPTypes
import Hummingbird

/// Requires `Authorization: Bearer <token>` with a valid, unexpired token from `TokenStore`.
struct BearerAuthMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  let tokens: TokenStore
  let stats: StatsRecorder

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let authorization = request.headers[.authorization] ?? ""
    let parts = authorization.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else {
      throw failure("this route needs 'Authorization: Bearer <token>'; get one from POST /oauth/token")
    }
    guard tokens.isValid(accessToken: String(parts[1]).trimmingCharacters()) else {
      throw failure("the access token is unknown or expired; get a new one from POST /oauth/token")
    }
    return try await next(request, context)
  }

  /// A missing token is answered like a bad one, so clients have one signal to refresh on.
  private func failure(_ message: String) -> DemoError {
    stats.update { $0.authFailures += 1 }
    return DemoError(
      status: .unauthorized, code: "invalid_token", message: message,
      headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
  }
}

extension String {
  /// This text without leading and trailing spaces and tabs.
  func trimmingCharacters() -> String { self[...].trimmingSpaces() }
}
