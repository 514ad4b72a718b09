import APXCore
import HummingbirdWebSocket
import NIOWebSocket

/// The server side of graphql-transport-ws for a mocked GraphQL endpoint's path: it acknowledges
/// `connection_init`, answers `ping`, and answers each `subscribe` with the `next` messages of
/// the operation's declared results, then `complete` (or an `error` naming why there are none).
/// A message that breaks the protocol closes the connection with the protocol's own codes
/// (4400 invalid message, 4401 a subscribe before the acknowledgement, 4429 a second init).
struct GraphQLTransportWSServer {
  /// The subprotocol a client offers to speak it.
  static let protocolName = "graphql-transport-ws"
  let answer: GraphQLExampleAnswer

  func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
    var acknowledged = false
    for try await message in inbound.messages(maxSize: 1 << 20) {
      guard case .text(let text) = message, let parsed = try? JSONParser.parse(Array(text.utf8)),
        let type = parsed["type"]?.stringValue
      else {
        try await outbound.close(.unknown(4400), reason: "not a graphql-transport-ws message")
        return
      }
      switch type {
      case "connection_init":
        guard !acknowledged else {
          try await outbound.close(.unknown(4429), reason: "Too many initialisation requests")
          return
        }
        acknowledged = true
        try await send(["type": .string("connection_ack")], outbound)
      case "ping":
        try await send(["type": .string("pong")], outbound)
      case "pong", "complete":
        continue
      case "subscribe":
        guard acknowledged else {
          try await outbound.close(.unknown(4401), reason: "Unauthorized")
          return
        }
        guard let id = parsed["id"]?.stringValue, let query = parsed["payload"]?["query"]?.stringValue else {
          try await outbound.close(.unknown(4400), reason: "a subscribe message needs an id and a payload query")
          return
        }
        try await subscribe(
          id: id, query: query, operationName: parsed["payload"]?["operationName"]?.stringValue, outbound)
      default:
        try await outbound.close(.unknown(4400), reason: "unknown message type \"\(type)\"")
        return
      }
    }
  }

  /// One subscription: its results, then `complete`; or one `error`, which ends it too.
  private func subscribe(id: String, query: String, operationName: String?, _ outbound: WebSocketOutboundWriter)
    async throws
  {
    let results: [JSONValue]
    switch answer.lookup(query: query, operationName: operationName) {
    case .refused(let why):
      return try await send(
        ["id": .string(id), "type": .string("error"), "payload": GraphQLExampleAnswer.errorList(why)], outbound)
    case .found(let endpoint, let kind):
      guard let declared = GraphQLExampleAnswer.results(of: endpoint, kind: kind) else {
        let why = GraphQLExampleAnswer.noExample(answer.apiName, endpoint)
        return try await send(
          ["id": .string(id), "type": .string("error"), "payload": GraphQLExampleAnswer.errorList(why)], outbound)
      }
      results = declared
    }
    for data in results {
      try await send(
        ["id": .string(id), "type": .string("next"), "payload": GraphQLExampleAnswer.result(data)], outbound)
    }
    try await send(["id": .string(id), "type": .string("complete")], outbound)
  }

  private func send(_ members: KeyValuePairs<String, JSONValue>, _ outbound: WebSocketOutboundWriter) async throws {
    try await outbound.write(.text(JSONValue.object(members.map { JSONMember($0.key, $0.value) }).compactJSON))
  }
}
