import APXCore
import APXDemoServer
import Foundation
import Testing

@testable import APXRuntime

/// OAuth2 client credentials against the demo server with auth required:
/// tokens are fetched once, shared, stored, refreshed and replayed.
@Suite struct OAuth2TokenTests {
  func executor(
    _ session: HTTPSession, store: TokenStore?, clock: ManualClock = ManualClock(),
    environment: [String: String] = [:]
  ) -> (Executor, TokenManager) {
    let tokens = TokenManager(session: session, environment: environment, store: store, clock: clock)
    return (Executor(session: session, environment: environment, tokens: tokens, clock: clock), tokens)
  }

  @Test func aTokenIsFetchedOnceAndReusedAcrossRuns() async throws {
    let store = AuthFixture.store()
    let requests = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: store)
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      #expect(try await executor.call(request, sink: RecordingSink()).status == 200)
      #expect(try await executor.call(request, sink: RecordingSink()).status == 200)
      // A second run (a new manager) finds the stored token.
      let (next, _) = self.executor(session, store: store)
      #expect(try await next.call(request, sink: RecordingSink()).status == 200)
      return server.stats.tokenRequests
    }
    #expect(requests == 1)
  }

  @Test func twentyConcurrentCallsCauseExactlyOneTokenRequest() async throws {
    let (requests, statuses) = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: AuthFixture.store())
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      let statuses = try await withThrowingTaskGroup(of: Int?.self) { group in
        for _ in 0..<20 { group.addTask { try await executor.call(request, sink: RecordingSink()).status } }
        return try await group.reduce(into: [Int?]()) { $0.append($1) }
      }
      return (server.stats.tokenRequests, statuses)
    }
    #expect(requests == 1)
    #expect(statuses.count == 20 && statuses.allSatisfy { $0 == 200 })
  }

  @Test func anExpiredTokenIsRefreshedWithoutTheUserNoticing() async throws {
    let clock = ManualClock()
    let sink = RecordingSink()
    // The server's tokens live 30 s of real time, so a slow machine cannot make the server
    // reject the first one; the client's clock is moved past that expiry instead.
    let (requests, issued) = try await withDemo(.init(tokenLifetime: 30, requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: AuthFixture.store(), clock: clock)
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      #expect(try await executor.call(request, sink: RecordingSink()).status == 200)
      clock.advance(by: 60)  // the 30 s token is long past its expiry for the client now
      #expect(try await executor.call(request, sink: sink).status == 200)
      return (server.stats.tokenRequests, server.stats.tokensIssued)
    }
    #expect(requests == 2)
    #expect(issued == 2)
    // Nothing was shown to the user: no retry, no note, one request.
    #expect(sink.retries.isEmpty)
    #expect(sink.requests.count == 1)
    #expect(!sink.events.contains { if case .note = $0 { true } else { false } })
  }

  @Test func aRejectedTokenIsRefreshedOnceAndEveryCallReplayed() async throws {
    let (requests, failures, calls) = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: AuthFixture.store())
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      #expect(try await executor.call(request, sink: RecordingSink()).status == 200)
      // The server forgets every token it issued; ours still looks valid to apx.
      _ = try await executor.call(try callRequest(api, "expire", baseURL: server.httpBaseURL), sink: RecordingSink())
      let calls = try await withThrowingTaskGroup(of: Call.self) { group in
        for _ in 0..<20 {
          group.addTask {
            let sink = RecordingSink()
            let status = try await executor.call(request, sink: sink).status
            return Call(status: status, answers: sink.responseStatuses)
          }
        }
        return try await group.reduce(into: [Call]()) { $0.append($1) }
      }
      return (server.stats.tokenRequests, server.stats.authFailures, calls)
    }
    // How many of the 20 sent the forgotten token depends on scheduling: a call that starts
    // after the refresh landed already has the new one. Each that sent it was refused once
    // and replayed; the server saw exactly those refusals, and one refresh served them all.
    let refused = calls.filter { $0.answers.first == 401 }
    #expect(requests == 2)
    #expect(!refused.isEmpty)
    #expect(failures == refused.count)
    #expect(calls.count == 20 && calls.allSatisfy { $0.status == 200 })
    #expect(calls.allSatisfy { $0.answers == [401, 200] || $0.answers == [200] }, "\(calls.map(\.answers))")
  }

  /// One call's final status and the status of every response it received, in order.
  struct Call: Sendable {
    var status: Int?
    var answers: [Int]
  }

  @Test func aBadClientSecretIsAnAuthErrorThatSaysWhatToCheck() async throws {
    let secret = "wrong-secret-4711"
    let error = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: AuthFixture.store(), environment: ["T_CLIENT_SECRET": secret])
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      return await #expect(throws: APXError.self) { try await executor.call(request, sink: RecordingSink()) }
    }
    let e = try #require(error)
    #expect(e.status == .auth)
    #expect(e.message.contains("\"books\""))
    #expect(e.hint?.contains("T_CLIENT_SECRET") == true)
    #expect(e.hint?.contains("T_CLIENT_ID") == true)
    #expect(!e.description.contains(secret))
  }

  @Test func theTokenFileIsPrivateAndWrittenWhole() async throws {
    let store = AuthFixture.store()
    try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (executor, _) = executor(session, store: store)
      _ = try await executor.call(
        try callRequest(api, "capabilities", baseURL: server.httpBaseURL), sink: RecordingSink())
    }
    let path = store.path(api: "books", environment: "demo")
    #expect(try AuthFixture.permissions(path) == 0o600)
    #expect(try AuthFixture.permissions(store.directory) == 0o700)
    let names = try FileManager.default.contentsOfDirectory(atPath: store.directory)
    #expect(!names.contains { $0.contains(".tmp-") })
    let token = try #require(try await store.read(api: "books", environment: "demo"))
    #expect(token.refreshToken != nil)
    #expect(token.subject == "demo-client")
    #expect(token.expiresAt != nil)
  }

  @Test func twoManagersSharingAStoreMakeOneTokenRequest() async throws {
    // Two apx processes: separate managers, one token folder, one file lock.
    let store = AuthFixture.store()
    let requests = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let (first, _) = executor(session, store: store)
      let (second, _) = executor(session, store: store)
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for i in 0..<10 {
          group.addTask { _ = try await (i % 2 == 0 ? first : second).call(request, sink: RecordingSink()) }
        }
        try await group.waitForAll()
      }
      return server.stats.tokenRequests
    }
    #expect(requests == 1)
  }

  @Test func aStoredRefreshTokenIsUsedAndLogoutForgetsTheToken() async throws {
    let store = AuthFixture.store()
    let clock = ManualClock()
    try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      guard let auth = api.auth else { throw APXError(.usage, "no auth") }
      let tokens = TokenManager(session: session, environment: [:], store: store, clock: clock)
      let first = try await tokens.login(auth, api: api, environment: "demo", baseURL: server.httpBaseURL)
      let again = try await tokens.login(auth, api: api, environment: "demo", baseURL: server.httpBaseURL)
      #expect(first.accessToken != again.accessToken)
      // The first refresh token was spent by the second login (the demo rotates them).
      #expect(first.refreshToken != again.refreshToken)
      #expect(try await store.read(api: "books", environment: "demo")?.accessToken == again.accessToken)
      #expect(try await tokens.logout(api: "books", environment: "demo"))
      #expect(try await store.read(api: "books", environment: "demo") == nil)
      #expect(try await tokens.stored(api: "books", environment: "demo") == nil)
      #expect(try await tokens.logout(api: "books", environment: "demo") == false)
    }
  }

  @Test func tokensOfOtherSettingsAreNotReused() async throws {
    let store = AuthFixture.store()
    let requests = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api)
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      _ = try await executor(session, store: store).0.call(request, sink: RecordingSink())
      // The same settings reached through the environment: the stored token fits.
      let other = executor(session, store: store, environment: ["T_CLIENT_ID": "demo-client"]).0
      _ = try await other.call(request, sink: RecordingSink())
      // Other scopes: the stored token was not granted for them.
      var changed = try registry(AuthFixture.api.replacingOccurrences(of: "books:read", with: "books:write"))
      changed.name = "books"
      _ = try await executor(session, store: store).0.call(
        try callRequest(changed, "capabilities", baseURL: server.httpBaseURL), sink: RecordingSink())
      return server.stats.tokenRequests
    }
    #expect(requests == 2)
  }

  /// A stored token is keyed by what obtained it, secret included.
  @Test func aChangedSecretOrAudienceFetchesANewToken() async throws {
    let store = AuthFixture.store()
    let withAudience = AuthFixture.api.replacingOccurrences(
      of: #""scopes": ["books:read"]"#, with: #""scopes": ["books:read"], "audience": "${env:T_AUDIENCE:-one}""#)
    let (requests, error) = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(withAudience)
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      _ = try await executor(session, store: store).0.call(request, sink: RecordingSink())
      // A wrong secret must not ride on the token the right one obtained.
      let wrong = executor(session, store: store, environment: ["T_CLIENT_SECRET": "wrong-secret-4711"]).0
      let error = await #expect(throws: APXError.self) { try await wrong.call(request, sink: RecordingSink()) }
      // The right secret again: the stored token fits (the refused fetch stored nothing).
      _ = try await executor(session, store: store).0.call(request, sink: RecordingSink())
      // Another audience: a new token.
      _ = try await executor(session, store: store, environment: ["T_AUDIENCE": "two"]).0.call(
        request, sink: RecordingSink())
      return (server.stats.tokenRequests, error)
    }
    #expect(requests == 3)
    #expect(error?.status == .auth)
    let file = try String(contentsOfFile: store.path(api: "books", environment: "demo"), encoding: .utf8)
    #expect(!file.contains("demo-secret"))
    #expect(file.contains("sha256:"))
  }

  /// A refused token request names the token endpoint with its path.
  @Test func aRefusedTokenRequestNamesTheEndpointWithItsPath() async throws {
    let error = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(AuthFixture.api.replacingOccurrences(of: "/oauth/token", with: "/oauth/missing"))
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      return await #expect(throws: APXError.self) {
        try await executor(session, store: AuthFixture.store()).0.call(request, sink: RecordingSink())
      }
    }
    #expect(error?.message.contains("/oauth/missing") == true)
  }

  /// RFC 6749 §2.3.1: with `"client_auth": "basic"` the credentials go in `Authorization: Basic`
  /// (form-encoded first) and not in the form, which the demo, like real servers, refuses to see twice.
  @Test func basicClientAuthenticationIsAccepted() async throws {
    let requests = try await withDemo(.init(requireAuth: true)) { server, session in
      let api = try registry(
        AuthFixture.api.replacingOccurrences(
          of: #""scopes": ["books:read"]"#, with: #""scopes": ["books:read"], "client_auth": "basic""#))
      let request = try callRequest(api, "capabilities", baseURL: server.httpBaseURL)
      #expect(try await executor(session, store: nil).0.call(request, sink: RecordingSink()).status == 200)
      return server.stats.tokenRequests
    }
    #expect(requests == 1)
  }
}
