/// What an endpoint speaks, with the options only that protocol has: an SSE endpoint's
/// reconnects are not a gRPC endpoint's, and a JSON-RPC method is no REST endpoint's.
public enum EndpointOptions: Sendable, Hashable {
  /// `kind: "rest"`. `events`: how an answer that turns out to be an event stream is followed
  /// (`apx call --until-event`); a registry file gives a REST endpoint none.
  case rest(events: SSEOptions? = nil)
  /// `kind: "sse"`.
  case sse(SSEOptions)
  /// `kind: "grpc"`.
  case grpc(GRPCOptions)
  /// `kind: "jsonrpc"`.
  case jsonrpc(JSONRPCOptions)
  /// `kind: "websocket"`.
  case websocket(WebSocketOptions)
  /// `kind: "graphql"`.
  case graphql(GraphQLOptions)

  /// The protocol, without its options.
  public var kind: EndpointKind {
    switch self {
    case .rest: .rest
    case .sse: .sse
    case .grpc: .grpc
    case .jsonrpc: .jsonrpc
    case .websocket: .websocket
    case .graphql: .graphql
    }
  }
}

extension Endpoint {
  /// How an event stream is followed: an SSE endpoint's options, or a REST endpoint's for an
  /// answer that is one. Setting it changes them only on those kinds (`options` changes the kind).
  public var sse: SSEOptions? {
    get {
      switch options {
      case .sse(let o): o
      case .rest(let events): events
      case .grpc, .jsonrpc, .websocket, .graphql: nil
      }
    }
    set {
      switch options {
      case .sse: if let newValue { options = .sse(newValue) }
      case .rest: options = .rest(events: newValue)
      case .grpc, .jsonrpc, .websocket, .graphql: break
      }
    }
  }

  /// A gRPC endpoint's options; nil for other kinds. Setting it changes them only on a gRPC endpoint.
  public var grpc: GRPCOptions? {
    get { if case .grpc(let o) = options { o } else { nil } }
    set { if let newValue, case .grpc = options { options = .grpc(newValue) } }
  }

  /// A JSON-RPC endpoint's method, params form and notification; nil for other kinds. Setting it
  /// changes them only on a JSON-RPC endpoint.
  public var jsonrpc: JSONRPCOptions? {
    get { if case .jsonrpc(let o) = options { o } else { nil } }
    set { if let newValue, case .jsonrpc = options { options = .jsonrpc(newValue) } }
  }
}

extension Endpoint {
  /// A WebSocket endpoint's options; nil for other kinds. Setting it changes them only on a
  /// WebSocket endpoint.
  public var websocket: WebSocketOptions? {
    get { if case .websocket(let o) = options { o } else { nil } }
    set { if let newValue, case .websocket = options { options = .websocket(newValue) } }
  }
}

extension Endpoint {
  /// A GraphQL endpoint's document and operation; nil for other kinds. Setting it changes them
  /// only on a GraphQL endpoint.
  public var graphql: GraphQLOptions? {
    get { if case .graphql(let o) = options { o } else { nil } }
    set { if let newValue, case .graphql = options { options = .graphql(newValue) } }
  }
}
