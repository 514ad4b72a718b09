import APXTestSupport
import Foundation
import Testing

/// apx against a WebSocket server it did not write: Python's `websockets`.
@Suite(
  "WebSocket against Python's websockets",
  .enabled(Comment(rawValue: WebSocketPythonServer.missing)) { await WebSocketPythonServer.found() })
struct WebSocketPythonServerTests {
  @Test func progressWithSubprotocolAuthRunsToTheCompleteMessage() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run([
        "call", base + "/progress", "jobId==imp_1", "--subprotocol", "bookstrack-auth.s3cr3tT0ken",
        "--until", ".type==complete", "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.map { $0["type"] as? String } == ["snapshot", "progress", "progress", "progress", "complete"])
      #expect(lines.first?["jobId"] as? String == "imp_1")
      #expect(!r.stderr.contains("s3cr3tT0ken"), "\(r.stderr)")
      #expect(r.stderr.contains("bookstrack-auth.***"), "\(r.stderr)")
    }
  }

  /// A registry bearer token with `"in": "subprotocol"` is offered as `bookstrack-auth.<token>`.
  @Test func aRegistryBearerTokenTravelsInTheSubprotocol() async throws {
    try await WebSocketPythonServer.run { base in
      let registry = try temporaryFile(
        "v1.json",
        """
        {"api": "v1", "environments": {"py": {"base_url": "\(base.replacingOccurrences(of: "ws://", with: "http://"))"}},
         "endpoints": {"progress": {"kind": "websocket", "path": "/progress",
           "params": {"jobId": {"in": "query", "required": true}},
           "auth": {"type": "bearer", "token": "${env:V1_TOKEN}", "in": "subprotocol", "prefix": "bookstrack-auth."},
           "until": {"path": ".type", "equals": "complete"}}}}
        """)
      let r = try await APXProcess.run(
        ["call", "v1.progress", "jobId=imp_2", "--registry", registry, "-v"], environment: ["V1_TOKEN": "s3cr3tT0ken"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try SSEWatchTests.lines(r.stdout).last?["type"] as? String == "complete")
      #expect(!r.stderr.contains("s3cr3tT0ken"), "\(r.stderr)")
      let without = try await APXProcess.run(["call", "v1.progress", "jobId=imp_2", "--registry", registry])
      #expect(without.status == 8, "an empty token is an auth failure: \(without.stderr)")
    }
  }

  /// A token in a subprotocol template, which the server echoes in its `Sec-WebSocket-Protocol`,
  /// reaches neither `--events` nor the run's journal in clear.
  @Test func anEchoedSubprotocolTokenStaysOutOfTheEventsAndTheJournal() async throws {
    try await WebSocketPythonServer.run { base in
      let registry = try TestRegistry.make(
        """
        {"api": "v1", "environments": {"py": {"base_url": "\(base.replacingOccurrences(of: "ws://", with: "http://"))"}},
         "endpoints": {"progress": {"kind": "websocket", "path": "/progress",
           "params": {"jobId": {"in": "query", "required": true}},
           "subprotocols": ["bookstrack-auth.${env:V1_TOKEN}"],
           "until": {"path": ".type", "equals": "complete"}}}}
        """)
      let recipe = try temporaryFile(
        "echoed.json",
        #"{"name": "echoed", "steps": [{"id": "watch", "call": "v1.progress", "with": {"jobId": "imp_4"}}]}"#)
      let state = RecipeTests.stateDirectory()
      let r = try await APXProcess.run(
        ["run", recipe, "--registry", registry, "--events"],
        environment: ["V1_TOKEN": "s3cr3tT0kenEcho", "APX_STATE_DIR": state])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("bookstrack-auth.***"), "the echoed header is there, masked: \(r.stdout)")
      #expect(!r.combined.contains("s3cr3tT0kenEcho"), "\(r.combined)")
      let journals = try FileManager.default.subpathsOfDirectory(atPath: state).filter { $0.hasSuffix(".jsonl") }
      #expect(!journals.isEmpty)
      for journal in journals {
        let text = try String(contentsOfFile: state + "/" + journal, encoding: .utf8)
        #expect(!text.contains("s3cr3tT0kenEcho"), "\(journal): \(text)")
      }
    }
  }

  /// A websocket-only API may name its server `ws://`; a token a subprotocol cannot carry (base64's
  /// `/` and `=`) is exit 8 before the handshake, without the token in the message.
  @Test func aWebSocketBaseURLWorksAndAnUncarriableTokenIsRefused() async throws {
    try await WebSocketPythonServer.run { base in
      let registry = try temporaryFile(
        "v1.json",
        """
        {"api": "v1", "environments": {"py": {"base_url": "\(base)"}},
         "endpoints": {"progress": {"kind": "websocket", "path": "/progress",
           "params": {"jobId": {"in": "query", "required": true}},
           "auth": {"type": "bearer", "token": "${env:V1_TOKEN}", "in": "subprotocol", "prefix": "bookstrack-auth."},
           "until": {"path": ".type", "equals": "complete"}}}}
        """)
      let ok = try await APXProcess.run(
        ["call", "v1.progress", "jobId=imp_2", "--registry", registry], environment: ["V1_TOKEN": "s3cr3tT0ken"])
      #expect(ok.status == 0, "\(ok.stderr)")
      #expect(try SSEWatchTests.lines(ok.stdout).last?["type"] as? String == "complete")
      let slash = try await APXProcess.run(
        ["call", "v1.progress", "jobId=imp_2", "--registry", registry], environment: ["V1_TOKEN": "ab/cd=="])
      #expect(slash.status == 8, "\(slash.stderr)")
      #expect(slash.stderr.contains("cannot travel in a WebSocket subprotocol: it holds '/'"), "\(slash.stderr)")
      #expect(!slash.stderr.contains("ab/cd=="), "\(slash.stderr)")
      #expect(slash.stdout.isEmpty, "\(slash.stdout)")
    }
  }

  /// 401 is refused credentials, exit 8 on a URL as on a registry endpoint, with a hint that
  /// fits a URL (no registry auth to check); other statuses exit by their class.
  @Test func aRefusedHandshakeExitsByItsStatus() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/progress", "jobId==imp_1"])
      #expect(r.status == 8, "\(r.stderr)")
      #expect(r.stderr.contains("401"), "\(r.stderr)")
      #expect(r.stderr.contains("--bearer TOKEN") && !r.stderr.contains("apx auth status"), "\(r.stderr)")
      let busy = try await APXProcess.run(["call", base + "/busy", "--no-retry"])
      #expect(busy.status == 5, "\(busy.stderr)")
      #expect(busy.stderr.contains("503"), "\(busy.stderr)")
    }
  }

  @Test func aFailureCloseCodeExits10WithTheCodeAndReason() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/fail"])
      #expect(r.status == 10, "\(r.stderr)")
      #expect(r.stdout.contains("\"started\""), "\(r.stdout)")
      #expect(r.stderr.contains("1011") && r.stderr.contains("boom"), "\(r.stderr)")
    }
  }

  @Test func dataIsSentAndTheEchoPrintedAsJSON() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(["call", base + "/echo", "name=Ann", "n:=3", "--max-messages", "1"])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = try SSEWatchTests.lines(r.stdout)
      #expect(lines.count == 1)
      #expect(lines.first?["name"] as? String == "Ann")
      #expect(lines.first?["n"] as? Int == 3)
    }
  }

  /// `--har` keeps the messages both ways as Chrome does (`_webSocketMessages`, which HAR viewers
  /// read), a credential among them masked, and the archive is still HAR 1.2.
  @Test func theArchiveHoldsTheMessagesAsChromeWritesThem() async throws {
    try await WebSocketPythonServer.run { base in
      let secret = "s3cr3t-in-a-frame"
      let har = try temporaryFile("ws.har", "")
      let r = try await APXProcess.run([
        "call", base + "/echo", "note=key \(secret)", "--max-messages", "1", "-H", "Authorization: Bearer \(secret)",
        "--har", har,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let text = try String(contentsOfFile: har, encoding: .utf8)
      #expect(!text.contains(secret), "\(text)")
      let entry = try #require(try HARTests.entries(har).first)
      #expect(entry["_resourceType"] as? String == "websocket")
      #expect(HARTests.response(entry)["status"] as? Int == 101)
      let messages = try #require(entry["_webSocketMessages"] as? [[String: Any]], "\(text)")
      #expect(messages.map { $0["type"] as? String } == ["send", "receive"], "\(messages)")
      #expect(messages.allSatisfy { $0["opcode"] as? Int == 1 && ($0["time"] as? Double ?? 0) > 1_700_000_000 })
      #expect(messages.map { $0["data"] as? String } == [#"{"note":"key ***"}"#, #"{"note":"key ***"}"#])
      try await HARTests.expectValid([har])
    }
  }

  @Test func stdinLinesAreSentAsMessages() async throws {
    try await WebSocketPythonServer.run { base in
      let r = try await APXProcess.run(
        ["call", base + "/echo", "--max-messages", "3"], stdin: Data("one\n{\"two\":2}\nthree\n".utf8))
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == "\"one\"\n{\"two\":2}\n\"three\"\n", "\(r.stdout)")
    }
  }

  /// Without --max-messages the call ends once stdin has and the echoes are in (it ran until
  /// killed), and -O FILE holds the messages, one per line (it was left unwritten).
  @Test func stdinsEndClosesOnceTheAnswersAreInAndOWritesThem() async throws {
    try await WebSocketPythonServer.run { base in
      let file = TestScratch.root.appendingPathComponent("ws-\(UUID().uuidString).ndjson").path
      let r = try await APXProcess.run(
        ["call", base + "/echo", "-O", file], stdin: Data("one\n{\"two\":2}\n".utf8), timeout: 30)
      #expect(r.status == 0, "\(r.stderr)")
      let written = try String(contentsOfFile: file, encoding: .utf8)
      // A file gets each message as it came, one per line (JSON ones as NDJSON), as -o raw prints.
      #expect(written == "one\n{\"two\":2}\n", "\(written) \(r.stderr)")
    }
  }

  /// A graphql-transport-ws server whose result nests 100,000 levels: named as too deep (exit 9),
  /// not as a server that does not speak the protocol.
  @Test func aSubscriptionResultNestedTooDeepIsNamedSo() async throws {
    try await WebSocketPythonServer.run { base in
      let url = "http" + base.dropFirst(2) + "/graphql-deep"
      let r = try await APXProcess.run(["call", url, "--graphql", "subscription { deep }"])
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("nested deeper than 512 levels"), "\(r.stderr)")
      #expect(!r.stderr.contains("not graphql-transport-ws"), "\(r.stderr)")
    }
  }
}
