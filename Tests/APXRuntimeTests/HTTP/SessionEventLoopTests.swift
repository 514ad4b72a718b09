import APXCore
import APXDemoServer
import NIOCore
import Testing

@testable import APXRuntime

/// A session's work runs on its event loop's thread (`HTTPSession.with`, `CommandEventLoop`),
/// before and after waiting for the network, and its HTTP client is made at the first request.
@Suite struct SessionEventLoopTests {
  static func plan(_ server: DemoServer) -> HTTPRequestPlan {
    HTTPRequestPlan(method: "GET", url: server.httpBaseURL + "/api/v2/bench/small", headers: [])
  }

  @Test(arguments: [SessionClosing.graceful, .atProcessExit])
  func aSessionsBodyRunsOnItsEventLoopAcrossAnAwaitOnTheNetwork(_ closing: SessionClosing) async throws {
    let (before, after) = try await withDemo { server, _ in
      try await HTTPSession.with(closing: closing) { session in
        let before = session.eventLoop.inEventLoop
        let response = try await session.send(Self.plan(server), deadline: .now() + .seconds(5))
        #expect(response.status.code == 200)
        return (before, session.eventLoop.inEventLoop)
      }
    }
    #expect(before)
    #expect(after)
  }

  @Test func aCommandRunsOnTheCommandEventLoopAndItsSessionsShareIt() async throws {
    try await CommandEventLoop.run {
      #expect(CommandEventLoop.executor.eventLoop.inEventLoop)
      try await HTTPSession.with(closing: .atProcessExit) { session in
        #expect(session.eventLoop === CommandEventLoop.executor.eventLoop)
        #expect(session.eventLoop.inEventLoop)
      }
    }
    // Outside `run`, a task has no preference: its code runs on Swift's pool, not on the loop.
    #expect(!CommandEventLoop.executor.eventLoop.inEventLoop)
  }

  @Test func aSessionMakesItsHTTPClientAtItsFirstRequestOnly() async throws {
    try await withDemo { server, session in
      #expect(!session.clients.wasMade)
      _ = try await session.send(Self.plan(server), deadline: .now() + .seconds(5))
      #expect(session.clients.wasMade)
    }
  }
}
