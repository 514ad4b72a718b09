import APXDemoServer
import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

/// GIF API, OAuth2, benchmarks, flaky endpoint, stats and shutdown of the demo server.
@Suite("Demo server: gifs, auth, bench, stats")
struct DemoServerMiscTests {
  @Test func gifsCheckTheAPIKey() async throws {
    try await DemoHTTPHarness.run { demo in
      let bad = try await demo.send(.GET, "/api/v1/wrong-key/gifs/trending")
      #expect(bad.status == 401)
      #expect(bad.json["result"] as? Bool == false)
      #expect((bad.json["error"] as? [String: Any])?["message"] as? String == "invalid API key")
    }
  }

  @Test func gifsKeepLiteralNumberText() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/api/v1/demo-key/gifs/trending?page=1&per_page=24")
      #expect(reply.status == 200)
      #expect(reply.body.contains("\"id\":9007199254740993,"))
      #expect(reply.body.contains("\"rating\":1.10"))
      #expect(reply.body.contains("\"duration\":2.50"))
      #expect(reply.body.contains("Café ☕ dance"))
      #expect(reply.body.contains("猫 jump"))
      let data = try #require(reply.json["data"] as? [String: Any])
      #expect((data["data"] as? [Any])?.count == 24)
      #expect(data["has_next"] as? Bool == true)
      #expect(data["current_page"] as? Int == 1)
      let last = try await demo.send(.GET, "/api/v1/demo-key/gifs/trending?page=3&per_page=24")
      #expect((last.json["data"] as? [String: Any])?["has_next"] as? Bool == false)
    }
  }

  @Test func gifSearchViewAndShare() async throws {
    try await DemoHTTPHarness.run { demo in
      let search = try await demo.send(.GET, "/api/v1/demo-key/gifs/search?q=cat")
      let items = (search.json["data"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
      #expect(!items.isEmpty)
      #expect(items.contains { $0["title"] as? String == "猫 jump" })
      let view = try await demo.send(.POST, "/api/v1/demo-key/gifs/cafe-dance/view")
      #expect(view.status == 204)
      let share = try await demo.send(.POST, "/api/v1/demo-key/gifs/cafe-dance/share")
      #expect(share.status == 204)
      let unknown = try await demo.send(.POST, "/api/v1/demo-key/gifs/no-such-gif/view")
      #expect(unknown.status == 404)
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<6 {
          group.addTask { try await demo.send(.POST, "/api/v1/demo-key/gifs/happy-dog/view").status }
        }
        for try await status in group { #expect(status == 204) }
      }
      let stats = demo.server.stats
      #expect(stats.views == 7)
      #expect(stats.shares == 1)
      #expect(stats.viewsInFlight == 0)
      #expect(stats.maxViewsInFlight >= 1)
    }
  }

  @Test func tokenEndpointIssuesAndRefreshes() async throws {
    try await DemoHTTPHarness.run { demo in
      let form = [("Content-Type", "application/x-www-form-urlencoded")]
      let good = try await demo.send(
        .POST, "/oauth/token", headers: form,
        body: "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret&scope=books%3Aread")
      #expect(good.status == 200)
      #expect(good.json["token_type"] as? String == "Bearer")
      #expect(good.json["expires_in"] as? Int == 3600)
      #expect(good.json["scope"] as? String == "books:read")
      let refreshToken = try #require(good.json["refresh_token"] as? String)

      let basic = Data("demo-client:demo-secret".utf8).base64EncodedString()
      let viaBasic = try await demo.send(
        .POST, "/oauth/token", headers: form + [("Authorization", "Basic \(basic)")],
        body: "grant_type=client_credentials")
      #expect(viaBasic.status == 200)
      #expect(viaBasic.json["access_token"] as? String != good.json["access_token"] as? String)

      let bad = try await demo.send(
        .POST, "/oauth/token", headers: form,
        body: "grant_type=client_credentials&client_id=demo-client&client_secret=wrong")
      #expect(bad.status == 401)
      #expect(bad.json["error"] as? String == "invalid_client")

      let refreshed = try await demo.send(
        .POST, "/oauth/token", headers: form, body: "grant_type=refresh_token&refresh_token=\(refreshToken)")
      #expect(refreshed.status == 200)
      #expect(refreshed.json["access_token"] is String)
      let reused = try await demo.send(
        .POST, "/oauth/token", headers: form, body: "grant_type=refresh_token&refresh_token=\(refreshToken)")
      #expect(reused.status == 400)
      #expect(reused.json["error"] as? String == "invalid_grant")
      #expect(demo.server.stats.tokenRequests == 5)
    }
  }

  /// The token route refuses what a real authorization server refuses (RFC 6749 §2.3, §3.2, §4.4.2, §5.2).
  @Test func tokenEndpointIsAsStrictAsARealOne() async throws {
    let good = "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret"
    let form = [("Content-Type", "application/x-www-form-urlencoded")]
    let basic = Data("demo-client:demo-secret".utf8).base64EncodedString()
    // §2.3.1: the Basic user name and password are form-encoded first.
    let encoded = Data("demo-client:demo%2Dsecret".utf8).base64EncodedString()
    let cases: [(headers: [(String, String)], body: String, expected: String)] = [
      ([], good, "400 invalid_request"),
      ([("Content-Type", "application/json")], good, "400 invalid_request"),
      ([("Content-Type", "text/plain")], good, "400 invalid_request"),
      ([("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")], good, "200 -"),
      (form, good + "&grant_type=client_credentials", "400 invalid_request"),
      (form, "client_id=demo-client&client_secret=demo-secret", "400 invalid_request"),
      (form, "grant_type=password&client_id=demo-client&client_secret=demo-secret", "400 unsupported_grant_type"),
      (form, "grant_type=client_credentials", "401 invalid_client"),
      (form, good + "&scope=admin", "400 invalid_scope"),
      (form + [("Authorization", "Basic \(basic)")], good, "400 invalid_request"),
      (form + [("Authorization", "Bearer abc")], "grant_type=client_credentials", "401 invalid_client"),
      (form + [("Authorization", "Basic \(encoded)")], "grant_type=client_credentials", "200 -"),
    ]
    try await DemoHTTPHarness.run { demo in
      for (headers, body, expected) in cases {
        let reply = try await demo.send(.POST, "/oauth/token", headers: headers, body: body)
        let answer = "\(reply.status) \(reply.json["error"] as? String ?? "-")"
        #expect(answer == expected, "\(headers) \(body)")
        #expect(reply.headers.first(name: "Cache-Control") == "no-store")
      }
    }
  }

  @Test func requireAuthGuardsBooksRoutes() async throws {
    try await DemoHTTPHarness.run(.init(requireAuth: true)) { demo in
      let anonymous = try await demo.send(.GET, "/api/v2/capabilities")
      #expect(anonymous.status == 401)
      #expect(anonymous.headers.first(name: "WWW-Authenticate")?.contains("error=\"invalid_token\"") == true)

      let token = try await demo.send(
        .POST, "/oauth/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
        body: "grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret")
      let access = try #require(token.json["access_token"] as? String)
      let authorized = try await demo.send(
        .GET, "/api/v2/capabilities", headers: [("Authorization", "Bearer \(access)")])
      #expect(authorized.status == 200)

      _ = try await demo.send(.POST, "/_demo/expire-tokens")
      let expired = try await demo.send(
        .GET, "/api/v2/capabilities", headers: [("Authorization", "Bearer \(access)")])
      #expect(expired.status == 401)
      #expect(demo.server.stats.authFailures == 2)
    }
  }

  @Test func flakyFailsTheFirstAttemptsPerKey() async throws {
    try await DemoHTTPHarness.run { demo in
      let path = "/api/v2/flaky?key=a&fail=2&status=429&retry_after=3"
      let first = try await demo.send(.GET, path)
      #expect(first.status == 429)
      #expect(first.headers.first(name: "Retry-After") == "3")
      #expect(try await demo.send(.GET, path).status == 429)
      let third = try await demo.send(.GET, path)
      #expect(third.status == 200)
      #expect(third.json["attempts"] as? Int == 3)
      #expect(try await demo.send(.GET, "/api/v2/flaky?key=b&fail=1").status == 503)
      #expect(demo.server.stats.flakyAttempts == ["a": 3, "b": 1])
    }
  }

  @Test func benchBodiesHaveTheRequestedSize() async throws {
    try await DemoHTTPHarness.run { demo in
      let bytes = try await demo.send(.GET, "/api/v2/bench/bytes?size=200000")
      #expect(bytes.body.utf8.count == 200_000 || bytes.body.unicodeScalars.count > 0)
      #expect(bytes.headers.first(name: "Content-Length") == "200000")
      let json = try await demo.send(.GET, "/api/v2/bench/json?mb=0.25")
      let object = try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any]
      let items = try #require(object?["items"] as? [Any])
      #expect(object?["count"] as? Int == items.count)
      #expect(json.body.utf8.count >= 250_000)
      let small = try await demo.send(.GET, "/api/v2/bench/small")
      #expect(small.status == 200)
      #expect(small.body.utf8.count < 400)
    }
  }

  @Test func statsEndpointServesDemoStats() async throws {
    try await DemoHTTPHarness.run { demo in
      _ = try await demo.send(.GET, "/api/v2/capabilities")
      _ = try await demo.send(.GET, "/api/v2/imports/imp_missing")
      let reply = try await demo.send(.GET, "/_demo/stats")
      #expect(reply.status == 200)
      let stats = try JSONDecoder().decode(DemoStats.self, from: Data(reply.body.utf8))
      #expect(stats.requestsByRoute["GET /api/v2/capabilities"] == 1)
      #expect(stats.requestsByRoute["GET /api/v2/imports/{id}"] == 1)
    }
  }

  @Test func stallAnswersOnceItsDelayIsOver() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/_demo/stall?ms=1")
      #expect(reply.status == 200)
      #expect(reply.json["stalled_ms"] as? Int == 1)
      #expect(reply.json["server_stopping"] as? Bool == false)
      let tooLong = try await demo.send(.GET, "/_demo/stall?ms=600000")
      #expect(tooLong.status == 400)
      #expect((tooLong.json["error"] as? [String: Any])?["code"] as? String == "invalid_parameter")
    }
  }

  @Test func dripSendsItsSizeInChunks() async throws {
    try await DemoHTTPHarness.run { demo in
      let reply = try await demo.send(.GET, "/_demo/drip?size=10&chunk=4&every_ms=1")
      #expect(reply.status == 200)
      #expect(reply.headers.first(name: "content-length") == "10")
      #expect(reply.body == String(repeating: "x", count: 10))
      for bad in ["size=-1", "chunk=0", "every_ms=20000", "size=ten"] {
        let refused = try await demo.send(.GET, "/_demo/drip?" + bad)
        #expect(refused.status == 400, "\(bad)")
        #expect((refused.json["error"] as? [String: Any])?["code"] as? String == "invalid_parameter")
      }
    }
  }

  @Test func stopClosesTheListeningSocket() async throws {
    let server = try await DemoServer.start()
    #expect(server.httpBaseURL == "http://127.0.0.1:\(server.httpPort)")
    #expect(server.httpPort > 0)
    #expect(await LoopbackPortProbe.accepts(port: server.httpPort))
    await server.stop()
    #expect(await LoopbackPortProbe.accepts(port: server.httpPort) == false)
  }

  @Test func stopEndsOpenEventStreams() async throws {
    let server = try await DemoServer.start(.init(rowDelay: 60))
    // withHTTPClient shuts the client down on every path: a thrown error must not
    // leave a live client behind (its deinit traps and would kill the whole test run).
    try await HTTPClient.withHTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup) { client in
      var upload = HTTPClientRequest(url: server.httpBaseURL + "/api/v2/imports")
      upload.method = .POST
      upload.headers.add(name: "Content-Type", value: "text/csv")
      upload.body = .bytes(ByteBuffer(string: "title\nslow\n"))
      let created = try await client.execute(upload, timeout: .seconds(30))
      let body = try await created.body.collect(upTo: 1 << 20)
      let object = try JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [String: Any]
      let sseURL = try #require(object?["sse_url"] as? String)
      var streamRequest = HTTPClientRequest(url: server.httpBaseURL + sseURL)
      streamRequest.headers.add(name: "Accept", value: "text/event-stream")
      let stream = try await client.execute(streamRequest, timeout: .seconds(60))
      var iterator = stream.body.makeAsyncIterator()
      let first = try await iterator.next()
      #expect(first.map { String(buffer: $0) }?.hasPrefix("retry: 1000") == true)
      await server.stop()
      // The stream ends (cleanly or not) instead of hanging until the job finishes.
      var ended = false
      do {
        while try await iterator.next() != nil {}
        ended = true
      } catch {
        ended = true
      }
      #expect(ended)
      #expect(await LoopbackPortProbe.accepts(port: server.httpPort) == false)
    }
  }

  @Test func runUntilCancelledStopsWhenItsTaskIsCancelled() async throws {
    let server = try await DemoServer.start()
    let running = Task { try await server.runUntilCancelled() }
    #expect(await LoopbackPortProbe.accepts(port: server.httpPort))
    running.cancel()
    try await running.value
    #expect(await LoopbackPortProbe.accepts(port: server.httpPort) == false)
  }

  @Test func startFailsWhenThePortIsTaken() async throws {
    let first = try await DemoServer.start()
    await #expect(throws: (any Error).self) {
      let second = try await DemoServer.start(.init(httpPort: first.httpPort))
      await second.stop()
    }
    await first.stop()
  }
}
