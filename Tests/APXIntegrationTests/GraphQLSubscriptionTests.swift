import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// GraphQL subscriptions against the demo's `importProgress`: over WebSocket with
/// graphql-transport-ws (the default) and over GraphQL over SSE.
@Suite("GraphQL subscriptions against the demo")
struct GraphQLSubscriptionTests {
  static let progress = "subscription($id: ID!) { importProgress(id: $id) { id status processedRows totalRows } }"

  static func statuses(_ stdout: String) throws -> [String] {
    try SSEWatchTests.lines(stdout).map { line in
      let job = try #require(line["importProgress"] as? [String: Any], "\(line)")
      return try #require(job["status"] as? String)
    }
  }

  @Test(arguments: [[], ["--graphql-transport", "sse"], ["--graphql-transport", "ws"]])
  func eachResultsDataIsOneLineUntilTheImportCompletes(_ transport: [String]) async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 6, [])
      let r = try await APXProcess.run(
        ["call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=\(job)", "-o", "ndjson", "-v"]
          + transport)
      #expect(r.status == 0, "\(r.stderr)")
      let statuses = try Self.statuses(r.stdout)
      #expect(statuses.last == "COMPLETE", "\(r.stdout)")
      #expect(!statuses.isEmpty && statuses.dropLast().allSatisfy { $0 != "COMPLETE" }, "\(r.stdout)")
      if transport.last == "sse" {
        #expect(r.stderr.contains("> POST http") && r.stderr.contains("Accept: text/event-stream"))
      } else {
        #expect(r.stderr.contains("Sec-WebSocket-Protocol: graphql-transport-ws"), "\(r.stderr)")
      }
    }
  }

  /// The registry's `"transport": "sse"` carries books.graphql.import_progress_sse, and describe shows it.
  @Test func aRegistryEndpointNamesItsCarrier() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 2, [])
      let r = try await APXProcess.run([
        "call", "books.graphql.import_progress_sse", "id=\(job)", "--base-url", server.httpBaseURL, "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("Accept: text/event-stream"), "\(r.stderr)")
      #expect(try Self.statuses(r.stdout).last == "COMPLETE", "\(r.stdout)")
      let described = try await APXProcess.run(["describe", "books.graphql.import_progress_sse"])
      #expect(described.stdout.contains(#""transport":"sse""#), "\(described.stdout)")
    }
  }

  /// `ping=1`: the demo pings after connection_ack and completes only once apx answered `pong`.
  @Test func theServersPingIsAnsweredWithPong() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 2, [])
      let r = try await APXProcess.run([
        "call", GraphQLDemoTests.url(server) + "?ping=1", "--graphql", Self.progress, "id=\(job)", "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try Self.statuses(r.stdout).last == "COMPLETE", "\(r.stdout)")
    }
  }

  @Test(arguments: ["ws", "sse"])
  func maxMessagesAndUntilStopTheSubscription(_ transport: String) async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 6, [])
      let one = try await APXProcess.run([
        "call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=\(job)", "--max-messages", "1",
        "--graphql-transport", transport,
      ])
      #expect(one.status == 0, "\(one.stderr)")
      #expect(try Self.statuses(one.stdout).count == 1, "\(one.stdout)")
      let until = try await APXProcess.run([
        "call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=\(job)", "-o", "ndjson",
        "--until", ".importProgress.status==COMPLETE", "--graphql-transport", transport,
      ])
      #expect(until.status == 0, "\(until.stderr)")
      #expect(try Self.statuses(until.stdout).last == "COMPLETE", "\(until.stdout)")
    }
  }

  /// An unknown job: over WebSocket the server answers `error` (exit 12, no reconnection);
  /// over SSE a `next` with errors and no data (exit 12 at the end).
  @Test(arguments: ["ws", "sse"])
  func aRefusedSubscriptionIsExit12(_ transport: String) async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=imp_nope", "--graphql-transport",
        transport,
      ])
      #expect(r.status == 12, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.contains("no import job with id 'imp_nope'"), "\(r.stderr)")
    }
  }

  /// The demo then requires a bearer token in connection_init's payload: a URL under the books
  /// API's base URL gets the API's OAuth2 token there; without one the server closes with 4403.
  @Test func theAPIsAuthTravelsInConnectionInit() async throws {
    let state = TestScratch.root.appendingPathComponent("apx-gql-sub-\(UUID().uuidString)").path
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let env = [
        "APX_STATE_DIR": state, "APX_REGISTRY": try AdHocRegistryMatchTests.registry(baseURL: server.httpBaseURL),
      ]
      let started = try await APXProcess.run(
        [
          "call", GraphQLDemoTests.url(server), "--graphql",
          "mutation($csv: String!) { startImport(csv: $csv, rowDelayMs: 1) { id } }", "csv=title\nDune\nKindred\n",
          "--select", ".startImport.id", "-r",
        ], environment: env)
      #expect(started.status == 0, "\(started.stderr)")
      let job = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      let r = try await APXProcess.run(
        ["call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=\(job)", "-o", "ndjson"],
        environment: env)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try Self.statuses(r.stdout).last == "COMPLETE", "\(r.stdout)")
      let refused = try await APXProcess.run(
        ["call", GraphQLDemoTests.url(server), "--graphql", Self.progress, "id=\(job)", "--no-auth"],
        environment: env)
      #expect(refused.status == 8, "\(refused.stderr)")
      #expect(refused.stderr.contains("4403"), "\(refused.stderr)")
    }
  }

  /// `drop_after=1` cuts every connection after one result: the registry's reconnect policy
  /// applies, and each new connection subscribes again.
  @Test func aDroppedConnectionReconnectsAsTheRegistrySays() async throws {
    try await withDemoServer { server in
      let job = try await SSEWatchTests.createImport(server, rows: 3, [])
      let registry = try temporaryFile(
        "gql.json",
        """
        {"api": "gql", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"progress": {"kind": "graphql", "path": "/api/v2/graphql",
           "query": "\(Self.progress)",
           "params": {"id": {"required": true}, "drop_after": {"in": "query", "default": "1"}},
           "reconnect": {"delays": [0.01], "max_failures": 2}}}}
        """)
      let r = try await APXProcess.run([
        "call", "gql.progress", "id=\(job)", "--registry", registry, "--max-messages", "3", "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(try Self.statuses(r.stdout).count == 3, "\(r.stdout)")
      #expect(server.stats.streamsDropped >= 2, "\(r.stderr)")
    }
  }

  @Test func streamOptionsOnAQueryAndUnknownCarriersAreExit2() async throws {
    try await withDemoServer { server in
      let url = GraphQLDemoTests.url(server)
      for extra in [
        ["--graphql-transport", "sse"], ["--until", ".book.id==1"], ["--max-messages", "2"],
      ] {
        let r = try await APXProcess.run(["call", url, "--graphql", "{ book(id: 1) { id } }"] + extra)
        #expect(r.status == 2 && r.stderr.contains("applies to a subscription"), "\(extra): \(r.stderr)")
      }
      let pigeon = try await APXProcess.run([
        "call", url, "--graphql", Self.progress, "id=1", "--graphql-transport", "pigeon",
      ])
      #expect(pigeon.status == 2, "\(pigeon.stderr)")
      let subprotocol = try await APXProcess.run([
        "call", url, "--graphql", Self.progress, "id=1", "--subprotocol", "other",
      ])
      #expect(subprotocol.status == 2, "\(subprotocol.stderr)")
      let rest = try await APXProcess.run([
        "call", server.httpBaseURL + "/api/v2/capabilities", "--graphql-transport", "ws",
      ])
      #expect(rest.status == 2, "\(rest.stderr)")
      // curl cannot speak graphql-transport-ws; --dry-run shows the handshake and the subscribe message.
      let curl = try await APXProcess.run(["call", url, "--graphql", Self.progress, "id=1", "--curl"])
      #expect(curl.status == 2 && curl.stderr.contains("--graphql-transport sse"), "\(curl.stderr)")
      let dry = try await APXProcess.run(["call", url, "--graphql", Self.progress, "id=1", "--dry-run"])
      #expect(dry.status == 0, "\(dry.stderr)")
      #expect(
        dry.stdout.contains(#""method":"GET""#) && dry.stdout.contains(#""type":"subscribe""#)
          && dry.stdout.contains("graphql-transport-ws"), "\(dry.stdout)")
    }
  }
}

extension GraphQLSubscriptionTests {
  /// A recipe step that calls a subscription endpoint is a stream step: `last` and `count`.
  @Test func aRecipeWatchesASubscription() async throws {
    let r = try await APXProcess.run(
      ["run", RecipeTests.recipe("import-graphql.json"), "row_delay_ms:=1", "--demo"],
      environment: ["APX_STATE_DIR": RecipeTests.stateDirectory()])
    #expect(r.status == 0, "\(r.stderr)")
    let output = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    #expect(output["status"] as? String == "COMPLETE", "\(r.stdout)")
    #expect(output["rows"] as? Int == 3, "\(r.stdout)")
    #expect((output["results"] as? Int ?? 0) >= 1, "\(r.stdout)")
  }
}
