import Hummingbird

/// `GET /_demo/stall?ms=N` (test-only): answers only after N milliseconds (default and
/// at most 60 s), so a client's timeout can be tested against a response that is late for
/// certain, instead of racing a fast one. A stopping server answers at once, so shutdown
/// never waits for a stalled request.
struct StallRoutes: Sendable {
  /// How often a stalled request looks whether the server is stopping.
  static let pollInterval: Duration = .milliseconds(10)

  let stopping: StopSignal

  /// Adds the route to `router`.
  func register(on router: Router<DemoRequestContext>) {
    router.get("_demo/stall") { request, _ in try await stall(request) }
  }

  private func stall(_ request: Request) async throws -> Response {
    let milliseconds = try request.intQuery("ms", in: 0...60_000, default: 60_000)
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .milliseconds(milliseconds))
    while clock.now < end, !stopping.isRaised {
      try await clock.sleep(for: min(Self.pollInterval, end - clock.now))
    }
    return DemoResponse.json(
      .object([("stalled_ms", .int(milliseconds)), ("server_stopping", .bool(stopping.isRaised))]))
  }
}
