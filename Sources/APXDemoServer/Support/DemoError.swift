import Hummingbird

/// An error answered as `{"error": {"code": ..., "message": ...}}` with its HTTP status.
///
/// Handlers throw it; `DemoRouteMiddleware` turns it (and any other error) into a JSON response.
struct DemoError: Error, Sendable {
  let status: HTTPResponse.Status
  let code: String
  let message: String
  /// Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`.
  var headers: HTTPFields = [:]

  /// The JSON error response.
  var response: Response {
    DemoResponse.json(
      .object([("error", .object([("code", .string(code)), ("message", .string(message))]))]),
      status: status,
      headers: headers
    )
  }

  static func badRequest(_ code: String, _ message: String) -> DemoError {
    DemoError(status: .badRequest, code: code, message: message)
  }

  static func notFound(_ message: String) -> DemoError {
    DemoError(status: .notFound, code: "not_found", message: message)
  }
}
