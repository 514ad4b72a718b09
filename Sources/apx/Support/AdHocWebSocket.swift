import APXCore
import APXRuntime

/// `apx call ws://HOST/PATH [ITEM ...]` (or `wss://`): a WebSocket endpoint made on the spot.
/// `q==v` items go into the handshake's query and `H:v` items into its headers; `-d` or body
/// items make one JSON message sent once the connection opens.
enum AdHocWebSocket {
  static func make(url: AdHocURL, items: [RequestItem], call: CallCommand, match: BaseURLMatch?) throws
    -> AdHocEndpoint
  {
    if call.form {
      throw APXError(.usage, "--form builds HTTP bodies; a WebSocket message is text", hint: "drop --form")
    }
    if items.contains(where: { if case .filePart = $0 { true } else { false } }) {
      throw APXError(
        .usage, "a WebSocket call sends messages, not file parts",
        hint: "send a file's text as a field (name=@file) or the whole message with -d @file")
    }
    var made = try AdHocEndpoint.make(
      method: "GET", url: url, items: items, hasData: call.data != nil, form: false, match: match)
    made.endpoint.name = "\(url.path)"
    made.endpoint.headers.removeAll { $0.name.lowercased() == "accept" }
    made.endpoint.options = .websocket(made.endpoint.options.route, WebSocketOptions())
    return made
  }
}
