import APXCore
import Testing

/// A websocket endpoint's `server_messages` (what `apx mock` sends): loaded, written back
/// unchanged, and refused when it is not examples and/or a schema.
@Suite struct WebSocketServerMessagesTests {
  static let sample = ##"""
    {
      "api": "chat",
      "schemas": {"Tick": {"type": "object"}},
      "endpoints": {
        "feed": {
          "kind": "websocket", "path": "/ws",
          "server_messages": {"examples": [{"n": 1}, "text"], "schema": {"$ref": "#/schemas/Tick"}}
        }
      }
    }
    """##

  @Test func serverMessagesLoadAndWriteBackUnchanged() throws {
    let api = try #require(RegistryFixture.load(Self.sample))
    let sent = try #require(api.endpoint(named: "feed")?.websocket?.serverMessages)
    #expect(sent.examples == [.object([JSONMember("n", .int(1))]), .string("text")])
    #expect(sent.schema == .object([JSONMember("$ref", .string("#/schemas/Tick"))]))
    let text = RegistryWriter.text(api)
    let again = try RegistryLoader.load(Array(text.utf8), file: "again.json")
    #expect(again.endpoint(named: "feed")?.websocket?.serverMessages == sent)
  }

  @Test(arguments: [
    (#"{"kind": "websocket", "path": "/", "server_messages": {}}"#, #"give "examples", "schema" or both"#),
    (
      #"{"kind": "websocket", "path": "/", "server_messages": {"examples": []}}"#,
      "expected a non-empty array of messages, got array"
    ),
    (
      #"{"kind": "websocket", "path": "/", "server_messages": {"schema": 3}}"#,
      "expected a JSON Schema (an object or a boolean), got number"
    ),
    (
      ##"{"kind": "websocket", "path": "/", "server_messages": {"schema": {"$ref": "#/schemas/X"}}}"##,
      "the reference #/schemas/X names no entry of \"schemas\""
    ),
    (
      #"{"kind": "rest", "path": "/", "server_messages": {"examples": [1]}}"#,
      #""server_messages" applies only to kind "websocket""#
    ),
  ])
  func aBadServerMessagesIsRefused(endpoint: String, message: String) {
    let errors = RegistryFixture.errors(#"{"api": "a", "endpoints": {"e": "# + endpoint + "}}")
    #expect(errors.contains { $0.message == message }, "\(errors.map(\.message))")
  }
}
