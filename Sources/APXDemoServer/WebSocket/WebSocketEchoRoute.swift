import APXServing
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// `/ws/echo`: sends every message back as it came (text as text, binary as binary) and
/// accepts the first subprotocol offered.
///
/// Query: `burst=N` sends N messages `{"seq":I}` on connect; `close_after=K` closes after K
/// echoed messages with `close_code` (default 1000) and `close_reason`; `drop_after=K` cuts
/// the connection after K echoed messages without a close frame; `big=BYTES` sends one text
/// message of that many bytes on connect.
struct WebSocketEchoRoute: Sendable {
  static let path = "ws/echo"

  /// The echo's settings, read from the upgrade request's query.
  struct Settings: Sendable {
    var burst = 0
    var big = 0
    var closeAfter: Int?
    var dropAfter: Int?
    var closeCode = 1000
    var closeReason: String?

    init(_ request: Request) throws {
      func number(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.uri.queryParameters[Substring(name)].map(String.init) else { return nil }
        guard let value = Int(text), range.contains(value) else {
          throw DemoError.badRequest(
            "invalid_parameter", "'\(name)' must be a whole number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
      }
      burst = try number("burst", in: 0...10_000_000) ?? 0
      big = try number("big", in: 0...(256 << 20)) ?? 0
      closeAfter = try number("close_after", in: 0...1_000_000)
      dropAfter = try number("drop_after", in: 0...1_000_000)
      closeCode = try number("close_code", in: 1000...4999) ?? 1000
      closeReason = request.uri.queryParameters["close_reason"].map(String.init)
    }
  }

  func register(http router: Router<ServerRequestContext>, webSocket ws: Router<DemoWebSocketContext>) {
    router.get(RouterPath(stringLiteral: Self.path)) { request, _ -> Response in
      _ = try Settings(request)
      throw WebSocketHandshake.upgradeRequired()
    }
    ws.ws(
      RouterPath(stringLiteral: Self.path),
      shouldUpgrade: { request, _ in
        guard (try? Settings(request)) != nil else { return .dontUpgrade }
        guard let chosen = WebSocketHandshake.offeredSubprotocols(request).first else { return .upgrade([:]) }
        return .upgrade([.secWebSocketProtocol: chosen])
      },
      onUpgrade: { inbound, outbound, context in
        let settings = try Settings(context.request)
        if settings.burst > 0 {
          for seq in 1...settings.burst { try await outbound.write(.text("{\"seq\":\(seq)}")) }
        }
        if settings.big > 0 { try await outbound.write(.text(String(repeating: "x", count: settings.big))) }
        if settings.closeAfter == 0 {
          return try await outbound.close(.init(codeNumber: settings.closeCode), reason: settings.closeReason)
        }
        var echoed = 0
        for try await message in inbound.messages(maxSize: 64 << 20) {
          switch message {
          case .text(let text): try await outbound.write(.text(text))
          case .binary(let bytes): try await outbound.write(.binary(bytes))
          }
          echoed += 1
          if echoed == settings.dropAfter {
            try? await context.requestContext.channel.close()
            return
          }
          if echoed == settings.closeAfter {
            return try await outbound.close(.init(codeNumber: settings.closeCode), reason: settings.closeReason)
          }
        }
      })
  }
}
