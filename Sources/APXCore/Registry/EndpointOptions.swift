/// Where a request goes on an HTTP server: its method and its path template.
public struct HTTPRoute: Sendable, Hashable {
  /// The HTTP method, upper-case.
  public var method: String
  /// The path template with `{name}` placeholders, relative to the base URL.
  public var path: String

  public init(method: String = "GET", path: String = "") {
    self.method = method
    self.path = path
  }
}

/// What an endpoint speaks, with the options only that protocol has: an SSE endpoint's
/// reconnects are not a gRPC endpoint's, and a JSON-RPC method is no REST endpoint's. The kinds
/// that ride on an HTTP request carry their route; a gRPC endpoint has none of its own (its
/// service and method name it), so it cannot hold an HTTP method or path.
public enum EndpointOptions: Sendable, Hashable {
  /// `kind: "rest"`.
  case rest(HTTPRoute)
  /// `kind: "sse"`.
  case sse(HTTPRoute, SSEOptions)
  /// `kind: "grpc"`.
  case grpc(GRPCOptions)
  /// `kind: "jsonrpc"`.
  case jsonrpc(HTTPRoute, JSONRPCOptions)
  /// `kind: "websocket"` (the route of its handshake).
  case websocket(HTTPRoute, WebSocketOptions)
  /// `kind: "graphql"`.
  case graphql(HTTPRoute, GraphQLOptions)

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

  /// The HTTP request's method and path: a gRPC call's is `POST /package.Service/Method`.
  public var route: HTTPRoute {
    switch self {
    case .rest(let route), .sse(let route, _), .jsonrpc(let route, _), .websocket(let route, _),
      .graphql(let route, _):
      route
    case .grpc(let o): HTTPRoute(method: "POST", path: "/\(o.service)/\(o.method)")
    }
  }

  /// These options with another route, or nil for gRPC, whose route its service and method make.
  public func rerouted(_ route: HTTPRoute) -> EndpointOptions? {
    switch self {
    case .rest: .rest(route)
    case .sse(_, let o): .sse(route, o)
    case .jsonrpc(_, let o): .jsonrpc(route, o)
    case .websocket(_, let o): .websocket(route, o)
    case .graphql(_, let o): .graphql(route, o)
    case .grpc: nil
    }
  }
}

extension Endpoint {
  /// An SSE endpoint's options; nil for other kinds. A REST call whose answer turns out to be
  /// an event stream follows it with the call's own options (`CallRequest.untilEvent`).
  public var sse: SSEOptions? {
    if case .sse(_, let o) = options { o } else { nil }
  }

  /// A gRPC endpoint's options; nil for other kinds.
  public var grpc: GRPCOptions? {
    if case .grpc(let o) = options { o } else { nil }
  }

  /// A JSON-RPC endpoint's method, params form and notification; nil for other kinds.
  public var jsonrpc: JSONRPCOptions? {
    if case .jsonrpc(_, let o) = options { o } else { nil }
  }

  /// A WebSocket endpoint's options; nil for other kinds.
  public var websocket: WebSocketOptions? {
    if case .websocket(_, let o) = options { o } else { nil }
  }

  /// A GraphQL endpoint's document and operation; nil for other kinds.
  public var graphql: GraphQLOptions? {
    if case .graphql(_, let o) = options { o } else { nil }
  }
}
