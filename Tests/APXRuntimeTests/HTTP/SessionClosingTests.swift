import APXCore
import APXDemoServer
import AsyncHTTPClient
import NIOCore
import Testing

@testable import APXRuntime

/// `SessionClosing`: a graceful session has shut its client down when `with` returns; one left
/// for the process's exit is kept, and still sends requests afterwards (the command line exits
/// right after, and the exit closes its connections).
@Suite struct SessionClosingTests {
  static func plan(_ server: DemoServer) -> HTTPRequestPlan {
    HTTPRequestPlan(method: "GET", url: server.httpBaseURL + "/api/v2/bench/small", headers: [])
  }

  @Test func aGracefulSessionReleasesItsClientAndOneLeftForTheExitKeepsIt() async throws {
    // AsyncHTTPClient traps (in debug builds) on a client deinitialised before its shutdown, and
    // on a request sent after it: a graceful session's client is shut down and gone when `with`
    // returns; one left for the exit is kept referenced (ProcessLifetime) until then.
    weak var closed: HTTPClient?
    try await HTTPSession.with(closing: .graceful) { closed = $0.client }
    #expect(closed == nil)
    weak var kept: HTTPClient?
    try await HTTPSession.with(closing: .atProcessExit) { kept = $0.client }
    #expect(kept != nil)
  }

  @Test func aSessionLeftForTheExitStillAnswersAfterItsScope() async throws {
    try await withDemo { server, _ in
      let session = try await HTTPSession.with(closing: .atProcessExit) { $0 }
      let response = try await session.send(Self.plan(server), deadline: .now() + .seconds(5))
      #expect(response.status.code == 200)
    }
  }

  @Test func aGRPCSessionLeftForTheExitIsKeptUntilThen() async throws {
    // Kept referenced (ProcessLifetime), so its clients are never deinitialised open.
    weak var kept: GRPCSession?
    try await GRPCSession.with(GRPCSettings(), closing: .atProcessExit) { kept = $0 }
    #expect(kept != nil)
    weak var closed: GRPCSession?
    try await GRPCSession.with(GRPCSettings(), closing: .graceful) { closed = $0 }
    #expect(closed == nil)
  }
}
