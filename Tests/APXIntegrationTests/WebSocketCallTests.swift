import APXCore
import APXDemoServer
import Crypto
import Foundation
import Testing

/// `apx call ws://...` against the demo's `/ws/echo` and BooksTrack V1 `/ws/progress`.
@Suite("apx call ws:// (demo)")
struct WebSocketCallTests {
  static func ws(_ server: DemoServer, _ path: String) -> String {
    server.httpBaseURL.replacingOccurrences(of: "http://", with: "ws://") + path
  }

  @Test func anEchoedJSONMessageIsPrintedUnchangedAndLossless() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.ws(server, "/ws/echo"), "-d", #"{"n":9007199254740993,"x":1.10}"#, "--max-messages", "1",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"n":9007199254740993,"x":1.10}"# + "\n", "\(r.stdout)")
    }
  }

  /// `--base-url ws://...` serves the websocket endpoints; a REST endpoint given one is exit 2,
  /// and nothing reaches the server.
  @Test func aWebSocketBaseURLIsForWebSocketEndpointsOnly() async throws {
    try await withDemoServer { server in
      let base = server.httpBaseURL.replacingOccurrences(of: "http://", with: "ws://")
      let before = server.stats.requestsByRoute.values.reduce(0, +)
      let rest = try await APXProcess.run(["call", "books.catalogue.list", "--base-url", base])
      #expect(rest.status == 2, "\(rest.stderr)")
      #expect(rest.stderr.contains("is a rest endpoint, but its base URL is a WebSocket URL"), "\(rest.stderr)")
      #expect(server.stats.requestsByRoute.values.reduce(0, +) == before)
    }
  }

  /// `-v` shows the handshake and each frame's direction, opcode and size, never its content.
  @Test func verboseShowsEachFramesDirectionOpcodeAndSize() async throws {
    try await withDemoServer { server in
      let message = #"{"secret":"do-not-show"}"#
      let r = try await APXProcess.run([
        "call", Self.ws(server, "/ws/echo"), "-d", message, "--max-messages", "1", "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("< HTTP/1.1 101"), "\(r.stderr)")
      #expect(r.stderr.contains("> [text frame, \(message.utf8.count) bytes]"), "\(r.stderr)")
      #expect(r.stderr.contains("< [text frame, \(message.utf8.count) bytes]"), "\(r.stderr)")
      #expect(r.stderr.contains("> [close frame, 2 bytes]"), "the client's close after the last message: \(r.stderr)")
      #expect(!r.stderr.contains("do-not-show"), "\(r.stderr)")
      let quiet = try await APXProcess.run(["call", Self.ws(server, "/ws/echo"), "-d", message, "--max-messages", "1"])
      #expect(!quiet.stderr.contains("frame"), "\(quiet.stderr)")
    }
  }

  @Test func textIsAStringAndMaxMessagesStops() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", Self.ws(server, "/ws/echo"), "burst==5", "--max-messages", "3"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try SSEWatchTests.lines(r.stdout).map { $0["seq"] as? Int } == [1, 2, 3])
    }
  }

  @Test func untilStopsAtTheCompleteMessageOfV1Progress() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 12, [])
      let r = try await APXProcess.run([
        "call", Self.ws(server, "/ws/progress"), "jobId==\(job)", "--subprotocol", "bookstrack-auth.demo-token-123",
        "--until", ".type==complete", "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.first?["type"] as? String == "snapshot")
      #expect(lines.last?["type"] as? String == "complete")
      #expect(lines.last?["processedRows"] as? Int == 12)
      #expect(r.stderr.contains("Sec-WebSocket-Protocol: bookstrack-auth.***"), "\(r.stderr)")
      #expect(!r.stderr.contains("demo-token-123"), "\(r.stderr)")
    }
  }

  @Test func aConnectionWithoutTheAuthSubprotocolIsClosedWith1008AndExits8() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 2, [])
      let r = try await APXProcess.run(["call", Self.ws(server, "/ws/progress"), "jobId==\(job)"])
      #expect(r.status == 8, "\(r.stderr)")
      #expect(r.stderr.contains("1008"), "\(r.stderr)")
      // A handshake the demo refuses (an unknown job) is answered 400, as hummingbird-websocket
      // answers every refused upgrade: exit 4.
      let unknown = try await APXProcess.run([
        "call", Self.ws(server, "/ws/progress"), "jobId==nope", "--subprotocol", "bookstrack-auth.t",
      ])
      #expect(unknown.status == 4, "\(unknown.stderr)")
      #expect(unknown.stderr.contains("400"), "\(unknown.stderr)")
    }
  }

  /// The demo's `refuse` fault, on the URL or on the job (`refuse_stream`), refuses the
  /// handshake: exit 4 with the status, no message printed, and the refusal counted.
  @Test func aRefusedV1HandshakeExits4AndPrintsNothing() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 2, [])
      let auth = ["--subprotocol", "bookstrack-auth.t"]
      let r = try await APXProcess.run(
        ["call", Self.ws(server, "/ws/progress"), "jobId==\(job)", "refuse==true"] + auth)
      #expect(r.status == 4, "\(r.stderr)")
      #expect(r.stderr.contains("answered 400"), "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      let refusedJob = try await SSEWatchTests.createImport(server, rows: 2, ["refuse_stream:=true"])
      let byJob = try await APXProcess.run(["call", Self.ws(server, "/ws/progress"), "jobId==\(refusedJob)"] + auth)
      #expect(byJob.status == 4, "\(byJob.stderr)")
      #expect(server.stats.streamsRefused == 2)
      let allowed = try await APXProcess.run(
        ["call", Self.ws(server, "/ws/progress"), "jobId==\(job)", "refuse==false", "--until", ".type==complete"] + auth
      )
      #expect(allowed.status == 0, "\(allowed.stderr)")
    }
  }

  @Test func aCloseCodeOtherThan1000Exits10WithItsReason() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.ws(server, "/ws/echo"), "close_after==1", "close_code==4000", "close_reason==job failed",
        "-d", #"{"a":1}"#,
      ])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stdout == #"{"a":1}"# + "\n")
      #expect(r.stderr.contains("4000") && r.stderr.contains("job failed"), "\(r.stderr)")
      let normal = try await APXProcess.run([
        "call", Self.ws(server, "/ws/echo"), "close_after==1", "-d", #"{"a":1}"#,
      ])
      #expect(normal.status == 0, "\(normal.stderr)")
    }
  }

  @Test func anOversizedMessageExits9() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", Self.ws(server, "/ws/echo"), "big==100000", "--max-message-size", "1000", "--max-messages", "1",
      ])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("--max-message-size"), "\(r.stderr)")
    }
  }

  @Test func webSocketFlagsOnARESTCallAreRefused() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/capabilities", "--subprotocol", "x",
      ])
      #expect(r.status == 2, "\(r.stderr)")
      #expect(r.stderr.contains("--subprotocol applies to WebSocket calls"), "\(r.stderr)")
    }
  }

  @Test func aRegistryEndpointWithSubprotocolTokenRunsToComplete() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 12, [])
      let registry = try temporaryFile(
        "v1.json",
        """
        {"api": "v1", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"progress": {"kind": "websocket", "path": "/ws/progress",
           "params": {"jobId": {"in": "query", "required": true}},
           "subprotocols": ["bookstrack-auth.${env:V1_TOKEN}"],
           "until": {"path": ".type", "equals": "complete"}}}}
        """)
      let r = try await APXProcess.run(
        ["call", "v1.progress", "jobId=\(job)", "--registry", registry, "-v"], environment: ["V1_TOKEN": "tok-abcdef"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try SSEWatchTests.lines(r.stdout).last?["type"] as? String == "complete")
      #expect(!r.stderr.contains("tok-abcdef"), "\(r.stderr)")
    }
  }

  /// A server that accepts, sends everything and closes at once puts the 101 answer, the
  /// messages, the close frame and the end of the connection in one read: each message must
  /// still arrive, and the close frame end the watch normally.
  /// The raw 101 answer to the upgrade request whose head is `head` (its accept key computed).
  static func switchingProtocols(_ head: String) -> [UInt8] {
    let key =
      head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
      .map { $0.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces) } ?? ""
    let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
      .base64EncodedString()
    return Array(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n\r\n"
        .utf8)
  }

  /// `ping_interval`: pings go out and the server's pongs keep the watch alive; a server that
  /// never answers a ping ends each attempt, and the watch gives up after `max_failures`.
  @Test func pingsAreAnsweredOrEndTheAttempt() async throws {
    try await withDemoServer { server in
      // 1,000 rows at 400 ms a row: a progress message every 0.4 s for 400 s, so the job is
      // still running when apx connects, however long a loaded machine makes it wait for a slot.
      // Four messages (the snapshot and three of those) take the server over 0.8 s, several
      // ping intervals.
      let job = try await SSEWatchTests.createImport(server, rows: 1000, [], rowDelayMs: 400)
      let registry = try temporaryFile(
        "v1.json",
        """
        {"api": "v1", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"progress": {"kind": "websocket", "path": "/ws/progress",
           "params": {"jobId": {"in": "query", "required": true}},
           "subprotocols": ["bookstrack-auth.t0ken"], "ping_interval": 0.2, "max_messages": 4}}}
        """)
      let r = try await APXProcess.run(["call", "v1.progress", "jobId=\(job)", "--registry", registry, "-v"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(
        r.stderr.contains("> [ping frame, 3 bytes]") && r.stderr.contains("< [pong frame, 3 bytes]"), "\(r.stderr)")
    }
    try await withHostileServer({ head in Array([.bytes(Self.switchingProtocols(head)), .silence]) }) { server in
      let registry = try temporaryFile(
        "mute.json",
        """
        {"api": "mute", "environments": {"x": {"base_url": "http://127.0.0.1:\(server.port)"}},
         "endpoints": {"watch": {"kind": "websocket", "path": "/", "ping_interval": 0.2,
           "reconnect": {"delays": [0.1], "max_failures": 2}}}}
        """)
      let r = try await APXProcess.run(["call", "mute.watch", "--registry", registry])
      #expect(r.status == 6, "\(r.stderr)")
      #expect(r.stderr.contains("no pong answered a ping within 0.2s"), "\(r.stderr)")
    }
  }

  @Test func messagesInTheSameReadAsTheUpgradeAnswerAreKept() async throws {
    try await withHostileServer({ head in
      var bytes = Self.switchingProtocols(head)
      for n in 0..<3 {
        let payload = Array("{\"n\":\(n)}".utf8)
        bytes += [0x81, UInt8(payload.count)] + payload
      }
      bytes += [0x88, 6, 0x03, 0xE8] + Array("done".utf8)
      return [.bytes(bytes)]
    }) { server in
      for _ in 0..<5 {
        let r = try await APXProcess.run(["call", "ws://127.0.0.1:\(server.port)/"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n", "\(r.stdout)")
      }
    }
  }

  /// books.imports.progress_v1 carries the API's OAuth2 token in the subprotocol
  /// `bookstrack-auth.<token>`: fetched and stored as for every call, masked in `-v`, and refreshed
  /// once when the server closes with 1008 because the token expired.
  @Test func theV1EndpointCarriesTheOAuth2TokenInItsSubprotocolAndRefreshesIt() async throws {
    let env = ["APX_STATE_DIR": AuthTests.stateDirectory()]
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let csv = try temporaryFile("books.csv", "title,author\nA,B\nC,D\n")
      let created = try await APXProcess.run(
        ["call", "books.imports.create", "csv=@\(csv)", "row_delay_ms:=1", "--base-url", server.httpBaseURL],
        environment: env)
      let job = try #require(try JSONParser.parse(created.stdout)["job_id"]?.stringValue, "\(created.stderr)")
      let first = try await APXProcess.run(
        ["call", "books.imports.progress_v1", "jobId=\(job)", "--base-url", server.httpBaseURL, "-v"], environment: env)
      #expect(first.status == 0, "\(first.stderr)")
      #expect(try SSEWatchTests.lines(first.stdout).last?["type"] as? String == "complete")
      #expect(first.stderr.contains("Sec-WebSocket-Protocol: bookstrack-auth.***"), "\(first.stderr)")
      #expect(server.stats.tokensIssued == 1, "one token for the upload and the watch")

      let expired = try await APXProcess.run(["call", "POST", server.httpBaseURL + "/_demo/expire-tokens"])
      #expect(expired.status == 0, "\(expired.stderr)")
      let second = try await APXProcess.run(
        ["call", "books.imports.progress_v1", "jobId=\(job)", "--base-url", server.httpBaseURL], environment: env)
      #expect(second.status == 0, "\(second.stderr)")
      #expect(try SSEWatchTests.lines(second.stdout).last?["type"] as? String == "complete")
      #expect(server.stats.tokensIssued == 2, "the refused token was refreshed once")
    }
  }

  @Test func subprotocolAuthOnAnotherKindOfEndpointIsARegistryError() async throws {
    let registry = try temporaryFile(
      "v1.json",
      """
      {"api": "v1", "environments": {"demo": {"base_url": "http://127.0.0.1:9"}},
       "auth": {"type": "bearer", "token": "t", "in": "subprotocol", "prefix": "auth."},
       "endpoints": {"get": {"kind": "rest", "path": "/x"}}}
      """)
    let r = try await APXProcess.run(["validate", "--registry", registry])
    #expect(r.status != 0, "\(r.stdout)")
    #expect((r.stdout + r.stderr).contains("carried in a WebSocket subprotocol"), "\(r.stdout)\(r.stderr)")
  }

  /// A server that accepts the connection and never answers the handshake: exit 7 at the
  /// deadline, without taking apx's own close for the server's.
  @Test func aHandshakeThatIsNeverAnsweredTimesOutWithExit7() async throws {
    try await withHostileServer({ _ in [.silence] }) { server in
      let r = try await APXProcess.run(["call", "ws://127.0.0.1:\(server.port)/", "--timeout", "1"])
      #expect(r.status == 7, "\(r.stderr)")
      #expect(r.stderr.contains("timed out after 1s"), "\(r.stderr)")
      #expect(!r.stderr.contains("closed the connection"), "\(r.stderr)")
    }
  }

  /// The demo's echo endpoint as a registry: each connection sends three burst messages, then
  /// the echo of `send`, then the demo cuts it without a close frame (`burst=3 drop_after=1`).
  static func dropsRegistry(_ server: DemoServer, reconnect: String?) throws -> String {
    try temporaryFile(
      "echo.json",
      """
      {"api": "echo", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
       "endpoints": {"drops": {"kind": "websocket", "path": "/ws/echo",
         "params": {"burst": {"in": "query"}, "drop_after": {"in": "query"}},
         "send": [{"hello": 1}], "max_messages": 10\(reconnect.map { ", \"reconnect\": \($0)" } ?? "")}}}
      """)
  }

  @Test func aDroppedConnectionReconnectsAndResendsItsMessages() async throws {
    try await withDemoServer { server in
      // Ten messages need at least three connections.
      let registry = try Self.dropsRegistry(server, reconnect: #"{"delays": [0.05], "max_failures": 3}"#)
      let r = try await APXProcess.run(["call", "echo.drops", "burst=3", "drop_after=1", "--registry", registry])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.count == 10, "\(r.stdout)")
      #expect(lines.filter { $0["hello"] as? Int == 1 }.count >= 2, "the message is sent again: \(r.stdout)")
      #expect(r.stderr.contains("reconnecting"), "\(r.stderr)")
    }
  }

  /// `--reconnect-delay` starts the backoff in place of the endpoint's delays (here the
  /// default 5, 10, 20, 30 s): each reconnection after a connection that brought messages waits
  /// the first delay, which stderr names.
  @Test func reconnectDelayStartsTheBackoff() async throws {
    try await withDemoServer { server in
      let registry = try Self.dropsRegistry(server, reconnect: nil)
      let r = try await APXProcess.run([
        "call", "echo.drops", "burst=3", "drop_after=1", "--registry", registry, "--reconnect-delay", "0.2",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try SSEWatchTests.lines(r.stdout).count == 10, "\(r.stdout)")
      #expect(r.stderr.contains("reconnecting in 0.2s") && !r.stderr.contains("reconnecting in 5s"), "\(r.stderr)")
      for (flags, words) in [
        (
          ["http://127.0.0.1:9/x", "--reconnect-delay", "1"],
          "--reconnect-delay applies to SSE, WebSocket and GraphQL calls"
        ),
        (["http://127.0.0.1:9/x", "--sse", "--reconnect-delay", "4000"], "give 0 to 3600 seconds"),
        (["http://127.0.0.1:9/x", "--sse", "--reconnect-delay", "nan"], "give 0 to 3600 seconds"),
        (["http://127.0.0.1:9/g", "--graphql", "{ a }", "--reconnect-delay", "1"], "applies to a subscription"),
      ] {
        let refused = try await APXProcess.run(["call"] + flags + ["--no-auth"])
        #expect(refused.status == 2 && refused.stderr.contains(words), "\(flags): \(refused.stderr)")
      }
    }
  }
}
