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
    let given: [(Bool, CallFlag)] = [
      (!subprotocols.isEmpty, .subprotocol), (maxMessages != nil, .maxMessages), (until != nil, .until),
      (reconnectDelay != nil, .reconnectDelay),
    ]
    if let flag = given.first(where: { $0.0 && !endpoint.kind.takes($0.1) })?.1 {
      throw APXError(.usage, endpoint.kind.refused(flag, target: target), hint: Self.hint(refusing: flag, on: endpoint))
    }
    switch endpoint.options {
    case .graphql(let route, var graphQL):
      // A subscription stops as a WebSocket watch does.
      if let maxMessages { graphQL.maxMessages = maxMessages }
      if let until { graphQL.until = try MessageCondition(parsing: until) }
      if let maxMessageSize { graphQL.maxMessageSize = maxMessageSize }
      if let reconnectDelay {
        graphQL.reconnectDelay = reconnectDelay
        graphQL.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay)
      }
      endpoint.options = .graphql(route, graphQL)
    case .http:
      // The flag check above let --reconnect-delay through only to an event stream.
      if let reconnectDelay {
        _ = endpoint.options.updateEvents { $0.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay) }
      }
    case .websocket(let route, var options):
      options.subprotocols += subprotocols
      if let maxMessages { options.maxMessages = maxMessages }
      if let until { options.until = try MessageCondition(parsing: until) }
      if let maxMessageSize { options.maxMessageSize = maxMessageSize }
      if let reconnectDelay { options.reconnect.delays = ReconnectConfig.backoff(from: reconnectDelay) }
      if stdinLines { options.sendStdinLines = true }
      endpoint.options = .websocket(route, options)
    case .grpc, .jsonrpc:
      break
    }
  }

  /// What to do instead of `flag`, which a call of `endpoint`'s kind refuses.
  static func hint(refusing flag: CallFlag, on endpoint: Endpoint) -> String {
    if endpoint.graphql != nil, flag == .subprotocol {
      return "a GraphQL subscription offers graphql-transport-ws: drop --subprotocol; credentials travel in the "
        + "connection_init message"
    }
    if flag == .reconnectDelay {
      return "it applies to streams that reconnect: WebSocket, SSE (--sse on a URL) and GraphQL subscriptions"
    }
    return "call a ws:// or wss:// URL or a websocket endpoint, or drop \(flag.rawValue)"
      + (flag == .maxMessages ? " (--max-events N stops other streams)" : "")
  }
}
