import APXCore
import APXTestSupport
import Testing

/// `apx describe` of a WebSocket endpoint shows what the watch does: when it stops, when it
/// reconnects, its progress fields, and where the handshake carries the token.
@Suite struct DescribeWebSocketTests {
  @Test func aWebSocketEndpointShowsItsStopReconnectAndAuth() async throws {
    let r = try await APXProcess.run(["describe", "books.imports.progress_v1", "-o", "json"])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try JSONParser.parse(r.stdout)
    #expect(json["kind"] == .string("websocket"))
    let ws = try #require(json["websocket"], "\(r.stdout)")
    #expect(ws["until"]?["path"] == .string(".type") && ws["until"]?["equals"] == .string("complete"), "\(ws)")
    #expect(ws["reconnect"]?["delays"]?.arrayValue?.count == 4, "\(ws)")
    #expect(ws["reconnect"]?["max_failures"] == .int(3), "\(ws)")
    #expect(ws["progress"]?["done"] == .string(".processedRows"), "\(ws)")
    #expect(ws["server_messages"] == nil, "the mock's messages stay in the registry file")
    #expect(json["auth"] == .string("oauth2_client_credentials"))
    #expect(json["auth_subprotocol"] == .string("bookstrack-auth.<token>"), "\(r.stdout)")
  }
}
