import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `/api/v2/graphql` over WebSocket: the books GraphQL API's subscriptions with the
/// `graphql-transport-ws` protocol (subprotocol `graphql-transport-ws`, as Apollo and
/// strawberry speak it). The client sends `connection_init` (when the demo requires auth, with
/// `{"Authorization": "Bearer <access token>"}` in its payload, else closed with 4403), is
/// answered `connection_ack`, and then `subscribe`s: each result is a `next`, the end a
/// `complete`, and a subscription the server refuses (syntax, validation, an unknown job) an
/// `error`. `ping` is answered with `pong`. A subscription runs until it ends, or until the
/// client sends `complete` or goes. Faults: `drop_after=K` cuts the connection without a close
/// frame after K `next` messages; `ping=1` sends a `ping` after `connection_ack` and holds each
/// subscription's `complete` until the client's `pong` arrived (without one, a close with 4408
/// after 10 seconds).
struct GraphQLWebSocketRoute: Sendable {
  static let path = "api/v2/graphql"
  static let subprotocol = "graphql-transport-ws"

  let schema: GraphQLSchema
  let tokens: TokenStore
  let stats: StatsRecorder
  let options: DemoServerOptions

  func register(webSocket ws: Router<DemoWebSocketContext>) {
    ws.ws(
      RouterPath(stringLiteral: Self.path),
      shouldUpgrade: { request, _ in
        guard WebSocketHandshake.offeredSubprotocols(request).contains(Self.subprotocol) else { return .dontUpgrade }
        return .upgrade([.secWebSocketProtocol: Self.subprotocol])
      },
      onUpgrade: { inbound, outbound, context in
        let dropAfter = context.request.uri.queryParameters["drop_after"].flatMap { Int(String($0)) }
        stats.update { $0.streamConnections += 1 }
        let sent = SentCounter()
        let pong: PongFlag? = context.request.uri.queryParameters["ping"] == "1" ? PongFlag() : nil
        try await withThrowingTaskGroup(of: Void.self) { group in
          var acknowledged = false
          defer { group.cancelAll() }
          for try await message in inbound.messages(maxSize: 1 << 20) {
            guard case .text(let text) = message, let kind = try? Self.decoder.decode(Kind.self, from: Data(text.utf8))
            else {
              return try await outbound.close(.init(codeNumber: 4400), reason: "not a graphql-transport-ws message")
            }
            switch kind.type {
            case "connection_init":
              guard !acknowledged else {
                return try await outbound.close(.init(codeNumber: 4429), reason: "Too many initialisation requests")
              }
              guard authorized(text) else {
                stats.update { $0.authFailures += 1 }
                return try await outbound.close(.init(codeNumber: 4403), reason: "Forbidden")
              }
              acknowledged = true
              try await outbound.write(.text(#"{"type":"connection_ack"}"#))
              if pong != nil { try await outbound.write(.text(#"{"type":"ping"}"#)) }
            case "ping":
              try await outbound.write(.text(#"{"type":"pong"}"#))
            case "pong":
              pong?.set()
            case "subscribe":
              guard acknowledged else {
                return try await outbound.close(.init(codeNumber: 4401), reason: "Unauthorized")
              }
              guard let subscribe = try? Self.decoder.decode(Subscribe.self, from: Data(text.utf8)) else {
                return try await outbound.close(
                  .init(codeNumber: 4400), reason: "a subscribe message needs an id and a payload")
              }
              group.addTask {
                try await run(
                  subscribe, outbound: outbound, sent: sent, dropAfter: dropAfter, pong: pong, context: context)
              }
            case "complete":
              // The client is done with its subscription: the connection stays open until it closes it.
              continue
            default:
              continue
            }
          }
        }
      })
  }

  /// Whether `connection_init`'s payload carries a usable token (any, when auth is not required).
  private func authorized(_ text: String) -> Bool {
    guard options.requireAuth else { return true }
    guard let initial = try? Self.decoder.decode(Initial.self, from: Data(text.utf8)),
      let header = (initial.payload?["Authorization"] ?? initial.payload?["authorization"])?.string,
      header.lowercased().hasPrefix("bearer ")
    else { return false }
    return tokens.isValid(accessToken: String(header.dropFirst(7)))
  }

  /// One subscription: its results as `next` messages, then `complete`; or `error`.
  private func run(
    _ subscribe: Subscribe, outbound: WebSocketOutboundWriter, sent: SentCounter, dropAfter: Int?, pong: PongFlag?,
    context: WebSocketRouterContext<DemoWebSocketContext>
  ) async throws {
    let id = subscribe.id
    let outcome: Result<AsyncThrowingStream<GraphQLResult, any Error>, GraphQLErrors>
    do {
      outcome = try await graphqlSubscribe(
        schema: schema, request: subscribe.payload.query, variableValues: subscribe.payload.variables,
        operationName: subscribe.payload.operationName)
    } catch let error as GraphQLError {
      outcome = .failure(GraphQLErrors([error]))
    } catch {
      outcome = .failure(GraphQLErrors([GraphQLError(message: "\(error)")]))
    }
    switch outcome {
    case .failure(let errors):
      let list = (try? GraphQLJSONEncoder().encode(errors.errors)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
      try await outbound.write(.text(#"{"id":"# + Self.quoted(id) + #","type":"error","payload":"# + list + "}"))
    case .success(let results):
      for try await result in results {
        let payload = (try? GraphQLJSONEncoder().encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        try await outbound.write(.text(#"{"id":"# + Self.quoted(id) + #","type":"next","payload":"# + payload + "}"))
        if let dropAfter, sent.increment() == dropAfter {
          stats.update { $0.streamsDropped += 1 }
          try? await context.requestContext.channel.close()
          return
        }
      }
      if let pong {
        var waited = 0
        while !pong.isSet {
          guard waited < 1000 else { return try await outbound.close(.init(codeNumber: 4408), reason: "no pong") }
          try await Task.sleep(for: .milliseconds(10))
          waited += 1
        }
      }
      try await outbound.write(.text(#"{"id":"# + Self.quoted(id) + #","type":"complete"}"#))
    }
  }

  private static let decoder = JSONDecoder()

  private static func quoted(_ text: String) -> String {
    (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
  }

  private struct Kind: Decodable { let type: String }
  private struct Initial: Decodable { let payload: [String: Map]? }
  private struct Subscribe: Decodable, Sendable {
    let id: String
    let payload: GraphQLRequest
  }
}

/// `next` messages sent on one connection, for `drop_after`.
private final class SentCounter: Sendable {
  private let count = Mutex(0)
  func increment() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}

/// The client answered the server's `ping`, for `ping=1`.
private final class PongFlag: Sendable {
  private let answered = Mutex(false)
  var isSet: Bool { answered.withLock { $0 } }
  func set() { answered.withLock { $0 = true } }
}
