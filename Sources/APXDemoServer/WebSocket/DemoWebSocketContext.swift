import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of WebSocket upgrade requests: Hummingbird's storage, the handler the
/// upgrade runs, and the connection's channel, which `drop_every` closes without a close frame.
struct DemoWebSocketContext: RequestContext, WebSocketRequestContext {
  var coreContext: CoreRequestContextStorage
  let webSocket: WebSocketHandlerReference<Self>
  /// The TCP connection the upgrade request arrived on.
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    self.coreContext = .init(source: source)
    self.webSocket = .init()
    self.channel = source.channel
  }
}

/// What both halves of a WebSocket route share: the upgrade router serves the handshake (a
/// refused upgrade is answered 400 by hummingbird-websocket, whatever the reason), and the
/// plain router answers a GET that asks for no upgrade with the same checks as HTTP errors, or
/// 426 when they pass.
enum WebSocketHandshake {
  /// The subprotocols a request offers, in its order.
  static func offeredSubprotocols(_ request: Request) -> [String] {
    request.headers[values: .secWebSocketProtocol].flatMap { $0.split(separator: ",") }.map {
      String($0).trimmingCharacters()
    }.filter { !$0.isEmpty }
  }

  /// The answer to a plain GET of a WebSocket route whose checks passed.
  static func upgradeRequired() -> DemoError {
    DemoError(
      status: .upgradeRequired, code: "upgrade_required", message: "this route speaks WebSocket: connect with ws://",
      headers: [.upgrade: "websocket"])
  }

}
