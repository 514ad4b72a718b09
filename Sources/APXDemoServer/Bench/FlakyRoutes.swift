import APXServing
import HTTPTypes
import Hummingbird

/// `GET /api/v2/flaky`: fails the first N attempts per key, for retry tests.
struct FlakyRoutes: Sendable {
  let stats: StatsRecorder

  /// Adds the route under `/api/v2` of `api`.
  func register(on api: RouterGroup<ServerRequestContext>) {
    api.get("flaky") { request, _ in try flaky(request) }
  }

  /// The first `fail` requests per `key` answer `status` (503 or 429) with `Retry-After`;
  /// later ones answer 200 `{"key":K,"attempts":n}`.
  private func flaky(_ request: Request) throws -> Response {
    guard let key = request.query("key") else {
      throw DemoError.badRequest("missing_parameter", "query parameter 'key' is required")
    }
    let failures = try request.intQuery("fail", in: 0...1000, default: 1)
    let statusCode = try request.intQuery("status", in: 400...599, default: 503)
    guard statusCode == 503 || statusCode == 429 else {
      throw DemoError.badRequest("invalid_parameter", "'status' must be 503 or 429, got \(statusCode)")
    }
    let retryAfter = try request.intQuery("retry_after", in: 0...3600, default: 1)
    let attempts = stats.update { stats -> Int in
      stats.flakyAttempts[key, default: 0] += 1
      return stats.flakyAttempts[key, default: 0]
    }
    if attempts <= failures {
      let status = HTTPResponse.Status(code: statusCode)
      throw DemoError(
        status: status, code: statusCode == 429 ? "rate_limited" : "unavailable",
        message: "attempt \(attempts) of \(failures) planned failures for key '\(key)'; retry after \(retryAfter)s",
        headers: [.retryAfter: String(retryAfter)])
    }
    return DemoResponse.json(.object([("key", .string(key)), ("attempts", .int(attempts))]))
  }
}
