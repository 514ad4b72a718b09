import APXCore
import APXTestSupport
import Foundation
import Testing

/// `apx mock` of GraphQL endpoints: a request is answered by the endpoint that declares its
/// operation, with its declared example; a subscription's results over graphql-transport-ws
/// and over SSE; what it cannot answer is a GraphQL error that says why.
@Suite("apx mock: GraphQL", .timeLimit(.minutes(3)))
struct MockGraphQLTests {
  static func registry() throws -> String {
    try TestRegistry.make(
      #"""
      {"api": "lib", "environments": {"prod": {"base_url": "https://lib.example.com"}},
       "endpoints": {
         "book": {"kind": "graphql", "path": "/graphql", "query": "query Book($id: ID!) { book(id: $id) { id title } }",
           "responses": {"200": {"content_type": "application/json", "examples": {"one": {"book": {"id": "7", "title": "Kindred"}}}}}},
         "plain": {"kind": "graphql", "path": "/graphql", "query": "{ shelves { name } }"},
         "ticks": {"kind": "graphql", "path": "/graphql", "query": "subscription Ticks { tick { n } }",
           "responses": {"200": {"content_type": "application/json",
             "examples": {"three": [{"tick": {"n": 1}}, {"tick": {"n": 2}}, {"tick": {"n": 3}}]}}}}}}
      """#)
  }

  @Test func aQueryIsAnsweredByTheEndpointThatDeclaresIt() async throws {
    let registry = try Self.registry()
    let run = try await MockProcess.with(["lib", "--registry", registry]) { mock in
      let port = try mock.port()
      let book = try await LoopbackHTTP.request(
        port: port, "POST", "/graphql", headers: ["Content-Type": "application/json"],
        body: #"{"query": "query Book($id: ID!) { book(id: $id) { title } }", "variables": {"id": "7"}}"#)
      #expect(book.status == 200)
      #expect(book.json?["data"]?["book"]?["title"] == .string("Kindred"), "\(book.text)")
      let unknown = try await LoopbackHTTP.request(
        port: port, "POST", "/graphql", headers: ["Content-Type": "application/json"],
        body: #"{"query": "query Other { x }"}"#)
      #expect(unknown.status == 400)
      #expect(unknown.text.contains("no GraphQL endpoint of lib declares the query Other"), "\(unknown.text)")
      let broken = try await LoopbackHTTP.request(
        port: port, "POST", "/graphql", headers: ["Content-Type": "application/json"], body: #"{"query": "query {"}"#)
      #expect(broken.status == 400 && broken.json?["errors"] != nil, "\(broken.text)")
      let plain = try await LoopbackHTTP.request(
        port: port, "POST", "/graphql", headers: ["Content-Type": "application/json"],
        body: #"{"query": "{\n  shelves { name }\n}"}"#)
      #expect(plain.text.contains("lib.plain declares no example answer"), "\(plain.text)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(
      stderr.contains("GraphQL endpoints without an example answer, answered with an error: lib.plain"), "\(stderr)")
  }

  /// apx's own subscription client, over both transports, gets the declared results in order.
  @Test(arguments: ["ws", "sse"])
  func aSubscriptionStreamsItsDeclaredResults(transport: String) async throws {
    let registry = try Self.registry()
    try await MockProcess.with(["lib", "--registry", registry]) { mock in
      let r = try await APXProcess.run([
        "call", "http://127.0.0.1:\(try mock.port())/graphql", "--graphql", "subscription Ticks { tick { n } }",
        "--graphql-transport", transport, "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout == #"{"tick":{"n":1}}"# + "\n" + #"{"tick":{"n":2}}"# + "\n" + #"{"tick":{"n":3}}"# + "\n")
    }
  }

  /// A client that no one here wrote (Python's websockets) speaking graphql-transport-ws: the
  /// mock acknowledges, streams, completes, and closes with the protocol's codes when broken.
  @Test(
    .enabled(Comment(rawValue: WebSocketPythonServer.missing)) { await WebSocketPythonServer.found() },
    arguments: [("subscribe", 1000), ("early", 4401), ("twice", 4429)])
  func graphqlTransportWSIsHeldToItsProtocol(scenario: String, code: Int) async throws {
    let registry = try Self.registry()
    let script = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/websockets/graphql_ws_client.py").path
    try await MockProcess.with(["lib", "--registry", registry]) { mock in
      let r = try await ChildProcess.run(
        "/usr/bin/env", ["python3", script, "ws://127.0.0.1:\(try mock.port())/graphql", scenario],
        environment: ProcessInfo.processInfo.environment, timeout: 30)
      let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
      #expect(r.status == 0, "\(String(decoding: r.stderr, as: UTF8.self))")
      #expect(lines.first == #"{"subprotocol": "graphql-transport-ws"}"#, "\(lines)")
      #expect(lines.last == #"{"closed": \#(code)}"#, "\(lines)")
      if scenario == "subscribe" {
        #expect(
          Array(lines.dropFirst().dropLast()) == [
            #"{"type": "connection_ack"}"#,
            #"{"id": "1", "type": "next", "payload": {"data": {"tick": {"n": 1}}}}"#,
            #"{"id": "1", "type": "next", "payload": {"data": {"tick": {"n": 2}}}}"#,
            #"{"id": "1", "type": "next", "payload": {"data": {"tick": {"n": 3}}}}"#,
            #"{"id": "1", "type": "complete"}"#,
          ], "\(lines)")
      }
    }
  }
}
