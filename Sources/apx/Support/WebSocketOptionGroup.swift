import APXCore
import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `apx call`'s WebSocket options; refused (exit 2) on a call of any other kind.
struct WebSocketOptionGroup: ParsableArguments {
  @Option(
    name: .customLong("subprotocol"),
    help: ArgumentHelp(
      "WebSocket: offer this subprotocol in the handshake (repeatable; name.TOKEN masks TOKEN).", valueName: "NAME"))
  var subprotocols: [String] = []

  @Option(
    name: .customLong("max-messages"),
    parsing: .unconditional,
    help: ArgumentHelp("WebSocket, GraphQL subscription: stop after N received messages.", valueName: "N"))
  var maxMessages: Int?

  @Option(
    name: .customLong("until"),
    help: ArgumentHelp(
      "WebSocket, GraphQL subscription: stop after the first message whose value at PATH equals VALUE (JSON when it parses, else "
        + "text), e.g. --until '.type==complete'.", valueName: "PATH==VALUE"))
  var until: String?

  @Option(
    name: .customLong("reconnect-delay"),
    help: ArgumentHelp(
      "WebSocket, SSE, GraphQL subscription: seconds before the first reconnect; each later wait doubles, up to 30 "
        + "(or SECONDS when longer). Default: the endpoint's reconnect delays, else 5, 10, 20, 30.",
      valueName: "SECONDS"))
  var reconnectDelay: Double?

  func validate() throws {
    if let reconnectDelay, !ReconnectConfig.delayRange.contains(reconnectDelay) {
      throw ValidationError("--reconnect-delay \(reconnectDelay): give 0 to 3600 seconds")
    }
    for subprotocol in subprotocols {
      if let problem = HeaderSyntax.subprotocolProblem(subprotocol) {
        throw ValidationError("--subprotocol: \(problem)")
      }
    }
  }

  /// Whether stdin is a terminal (then its lines are not sent as messages).
  static var stdinIsTerminal: Bool { isatty(0) == 1 }

  /// Puts the flags into a WebSocket endpoint's options (`--max-messages` and `--until` into a
  /// GraphQL endpoint's, for a subscription), or refuses them on any other kind.
  /// - Parameters:
  ///   - stdinLines: an ad-hoc call without a body whose stdin is not a terminal.
  ///   - maxMessageSize: `--max-message-size` (a connection option gRPC shares).
  func apply(to endpoint: inout Endpoint, target: String, stdinLines: Bool, maxMessageSize: Int?) throws {
    if var graphQL = endpoint.graphql {
      // A subscription stops as a WebSocket watch does; graphql-transport-ws is its only subprotocol.
      if !subprotocols.isEmpty {
        throw APXError(
          .usage, "--subprotocol applies to WebSocket calls; a GraphQL subscription offers graphql-transport-ws",
          hint: "drop --subprotocol; credentials travel in the connection_init message")
      }
      if let maxMessages { graphQL.maxMessages = maxMessages }
      if let until { graphQL.until = try MessageCondition(parsing: until) }
      if let maxMessageSize { graphQL.maxMessageSize = maxMessageSize }
      if let reconnectDelay {
        graphQL.reconnectDelay = reconnectDelay
        graphQL.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay)
      }
      endpoint.graphql = graphQL
      return
    }
    if var sse = endpoint.sse, let reconnectDelay {
      sse.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay)
      endpoint.sse = sse
    }
    guard var options = endpoint.websocket else {
      let given = [
        (!subprotocols.isEmpty, "--subprotocol"), (maxMessages != nil, "--max-messages"), (until != nil, "--until"),
        (reconnectDelay != nil && endpoint.sse == nil, "--reconnect-delay"),
      ].first { $0.0 }
      if let flag = given?.1 {
        throw APXError(
          .usage,
          "\(flag) applies to \(flag == "--reconnect-delay" ? "WebSocket, SSE and GraphQL subscription" : "WebSocket") "
            + "calls, and \(target) is \(endpoint.kind.withArticle) call",
          hint: flag == "--reconnect-delay"
            ? "it applies to streams that reconnect: WebSocket, SSE (--sse on a URL) and GraphQL subscriptions"
            : "call a ws:// or wss:// URL or a websocket endpoint, or drop \(flag)"
              + (flag == "--max-messages" ? " (--max-events N stops other streams)" : ""))
      }
      return
    }
    options.subprotocols += subprotocols
    if let maxMessages { options.maxMessages = maxMessages }
    if let until { options.until = try MessageCondition(parsing: until) }
    if let maxMessageSize { options.maxMessageSize = maxMessageSize }
    if let reconnectDelay { options.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay) }
    if stdinLines { options.sendStdinLines = true }
    endpoint.websocket = options
  }
}
