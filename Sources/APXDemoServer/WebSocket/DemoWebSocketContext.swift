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

/// What both halves of a WebSocket route share: the upgrade router serves the handshake, and
/// the plain router answers the same checks as HTTP errors when the upgrade is refused (a
/// refused upgrade falls through to it), or 426 to a request that is no upgrade at all.
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

  /// A `refuse=STATUS` fault: the handshake is answered with that status.
  static func refusal(_ request: Request) throws -> DemoError? {
    guard let text = request.uri.queryParameters["refuse"].map(String.init) else { return nil }
    guard let code = Int(text), (400...599).contains(code) else {
      throw DemoError.badRequest("invalid_parameter", "'refuse' must be an HTTP status from 400 to 599, got '\(text)'")
    }
    return DemoError(
      status: .init(code: code), code: "refused", message: "the handshake was refused on purpose (refuse=\(code))",
      headers: code == 503 ? [.retryAfter: "1"] : [:])
  }
}
