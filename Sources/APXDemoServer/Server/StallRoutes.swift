import APXServing
import Hummingbird
import NIOCore

/// `GET /_demo/stall?ms=N` (test-only): answers only after N milliseconds (default and
/// at most 60 s), so a client's timeout can be tested against a response that is late for
/// certain, instead of racing a fast one. A stopping server answers at once, so shutdown
/// never waits for a stalled request. With `in_body=1` the status line, headers and the
/// first bytes of the body go out at once and the body stalls instead (a slow download).
struct StallRoutes: Sendable {
  /// How often a stalled request looks whether the server is stopping.
  static let pollInterval: Duration = .milliseconds(10)

  let stopping: StopSignal

  /// Adds the route to `router`.
  func register(on router: Router<ServerRequestContext>) {
    router.get("_demo/stall") { request, _ in try await stall(request) }
  }

  private func stall(_ request: Request) async throws -> Response {
    let milliseconds = try request.intQuery("ms", in: 0...60_000, default: 60_000)
    if try request.intQuery("in_body", in: 0...1, default: 0) == 1 {
      return Response(
        status: .ok, headers: [.contentType: "application/json"],
        body: ResponseBody { writer in
          try await writer.write(ByteBuffer(string: "{\"stalled_ms\": "))
          try await wait(milliseconds)
          try await writer.write(ByteBuffer(string: "\(milliseconds)}"))
          try await writer.finish(nil)
        })
    }
    try await wait(milliseconds)
    return DemoResponse.json(
      .object([("stalled_ms", .int(milliseconds)), ("server_stopping", .bool(stopping.isRaised))]))
  }

  private func wait(_ milliseconds: Int) async throws {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .milliseconds(milliseconds))
    while clock.now < end, !stopping.isRaised {
      try await clock.sleep(for: min(Self.pollInterval, end - clock.now))
    }
  }
}
