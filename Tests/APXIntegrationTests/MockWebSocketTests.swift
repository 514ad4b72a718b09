import APXCore
import Foundation
import Testing

/// `apx mock` serving `kind: "websocket"` endpoints: the declared or generated messages with
/// `until` holding on the last, auth in form (1008 without a credential), `drop-every` with
/// resumption, faults, the request log, and a client apx did not write (Python's websockets).
@Suite("apx mock WebSocket", .timeLimit(.minutes(5)))
struct MockWebSocketTests {
  static func registry() throws -> String {
    try temporaryFile(
      "chat.json",
      #"""
      {
        "api": "chat",
        "environments": {"prod": {"base_url": "https://chat.example.com"}},
        "schemas": {"Tick": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9}}}},
        "endpoints": {
          "progress": {
            "kind": "websocket", "path": "/ws/progress",
            "params": {"job": {"in": "query"}},
            "auth": {"type": "bearer", "token": "${env:CHAT_TOKEN}", "in": "subprotocol", "prefix": "mock-auth."},
            "until": {"path": ".type", "equals": "complete"},
            "reconnect": {"delays": [0.05], "max_failures": 5},
            "server_messages": {"examples": [{"type": "progress", "n": 1}, "plain text", {"type": "progress", "n": 2}]}
          },
          "ticks": {
            "kind": "websocket", "path": "/ws/ticks",
            "server_messages": {"schema": {"$ref": "#/schemas/Tick"}}
          },
          "keyed": {
            "kind": "websocket", "path": "/ws/keyed",
            "auth": {"type": "api_key", "in": "header", "name": "X-Key", "value": "${env:CHAT_KEY}"}
          }
        }
      }
      """#)
  }

  @Test func apxCallGetsTheExamplesAndStopsOnUntil() async throws {
    let registry = try Self.registry()
    try await MockProcess.with(["chat", "--registry", registry]) { mock in
      let base = "http://127.0.0.1:\(try mock.port())"
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "chat.progress", "job=7", "--base-url", base],
        environment: ["CHAT_TOKEN": "t0k3n"])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n").map(String.init)
      #expect(
        lines == [
          #"{"type":"progress","n":1}"#, #""plain text""#, #"{"type":"progress","n":2}"#, #"{"type":"complete"}"#,
        ], "\(r.stdout)")
      let log = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/__apx/requests")
      let entry = try #require(log.json?.arrayValue?.first)
      #expect(entry["endpoint"] == .string("progress"))
      #expect(entry["status"] == .int(101))
      #expect(entry["headers"]?["sec-websocket-protocol"] == .string("mock-auth.***"), "\(log.text)")
      #expect(!log.text.contains("t0k3n"))
      // A plain GET of a websocket endpoint is told to upgrade.
      let plain = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/ws/ticks")
      #expect(plain.status == 426)
    }
  }

  @Test func dropEveryCutsTheConnectionAndTheNextOneResumes() async throws {
    let registry = try Self.registry()
    let run = try await MockProcess.with(["chat", "--registry", registry, "--drop-every", "1"]) { mock in
      let r = try await APXProcess.run(
        ["call", "--registry", registry, "chat.progress", "--base-url", "http://127.0.0.1:\(try mock.port())"],
        environment: ["CHAT_TOKEN": "t0k3n"])
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 4 && lines.last == #"{"type":"complete"}"#, "\(r.stdout)")
      let log = try await LoopbackHTTP.request(port: try mock.port(), "GET", "/__apx/requests")
      #expect(log.json?.arrayValue?.count == 4, "one connection per message: \(log.text)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: fault: dropped the connection after message 1: GET /ws/progress"), "\(stderr)")
  }

  @Test func generatedMessagesFollowTheSchemaAndTheSeed() async throws {
    let registry = try Self.registry()
    var outputs: [String] = []
    for seed in ["1", "1", "2"] {
      let box = TextBox()
      try await MockProcess.with(["chat", "--registry", registry, "--seed", seed, "--sse-events", "5"]) { mock in
        let r = try await APXProcess.run(
          ["call", "--registry", registry, "chat.ticks", "--base-url", "http://127.0.0.1:\(try mock.port())"])
        #expect(r.status == 0, "\(r.stderr)")
        let values = try r.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(values.count == 5, "\(r.stdout)")
        #expect(values.allSatisfy { (1...9).contains($0["n"]?.intValue ?? 0) }, "\(r.stdout)")
        box.set(r.stdout)
      }
      outputs.append(box.text)
    }
    #expect(outputs[0] == outputs[1])
    #expect(outputs[0] != outputs[2])
  }

  @Test func aMissingCredentialIsClosedWith1008() async throws {
    let registry = try Self.registry()
    try await MockProcess.with(["chat", "--registry", registry]) { mock in
      let url = "ws://127.0.0.1:\(try mock.port())"
      let noToken = try await APXProcess.run(["call", url + "/ws/progress"])
      #expect(noToken.status == 8, "\(noToken.stderr)")
      #expect(noToken.stderr.contains("mock-auth.<token>"), "\(noToken.stderr)")
      let noKey = try await APXProcess.run(["call", url + "/ws/keyed"])
      #expect(noKey.status == 8, "\(noKey.stderr)")
      let withKey = try await APXProcess.run(["call", url + "/ws/keyed", "X-Key:k", "--max-messages", "2"])
      #expect(withKey.status == 0, "\(withKey.stderr)")
      #expect(withKey.stdout.split(separator: "\n").count == 2)
    }
  }

  @Test func faultsApplyToTheHandshake() async throws {
    let registry = try Self.registry()
    let run = try await MockProcess.with(["chat", "--registry", registry, "--latency", "5"]) { mock in
      let url = "ws://127.0.0.1:\(try mock.port())/ws/keyed"
      let failed = try await APXProcess.run(
        ["call", url, "X-Key:k", "X-Apx-Mock-Fault:fail=503", "--max-messages", "1"])
      #expect(failed.status == 10, "\(failed.stderr)")
      #expect(failed.stderr.contains("1013"), "\(failed.stderr)")
      let unreadable = try await APXProcess.run(["call", url, "X-Key:k", "X-Apx-Mock-Fault:bogus"])
      #expect(unreadable.status == 4, "\(unreadable.stderr)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: fault: latency 5 ms: WebSocket /ws/keyed"), "\(stderr)")
  }

  @Test(.enabled(Comment(rawValue: WebSocketPythonServer.missing)) { await WebSocketPythonServer.found() })
  func pythonsWebsocketsClientGetsTheMessages() async throws {
    let registry = try Self.registry()
    try await MockProcess.with(["chat", "--registry", registry]) { mock in
      let script = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/websockets/websockets_client.py").path
      let r = try await ChildProcess.run(
        "/usr/bin/env",
        ["python3", script, "ws://127.0.0.1:\(try mock.port())/ws/progress?job=1", "other", "mock-auth.abc"],
        environment: ProcessInfo.processInfo.environment, timeout: 60)
      let out = String(decoding: r.stdout, as: UTF8.self)
      #expect(r.status == 0, "\(out) \(String(decoding: r.stderr, as: UTF8.self))")
      let lines = try out.split(separator: "\n").map { try JSONParser.parse(String($0)) }
      #expect(lines.first?["subprotocol"] == .string("mock-auth.abc"), "\(out)")
      #expect(
        lines.dropFirst().dropLast().map { $0["message"]?.stringValue } == [
          #"{"type":"progress","n":1}"#, "plain text", #"{"type":"progress","n":2}"#, #"{"type":"complete"}"#,
        ], "\(out)")
      #expect(lines.last?["close"] == .int(1000), "\(out)")
    }
  }
}
