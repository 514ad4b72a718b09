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

/// What a plain HTTP endpoint (`kind: "rest"` or `"sse"`) takes and answers with.
public struct HTTPOptions: Sendable, Hashable {
  /// What the answer is.
  public enum Answer: Sendable, Hashable {
    /// One body (`kind: "rest"`), in pages when `pagination` is declared. An NDJSON or JSON Lines
    /// body is streamed as it arrives, told by its media type: the registry declares nothing.
    case body(pagination: Pagination?)
    /// A stream of server-sent events (`kind: "sse"`), followed with these options.
    case events(SSEOptions)
  }

  /// Other request bodies the server takes, judged by `apx mock`; calls send the body the
  /// params describe.
  public var accepts: [AcceptedBody]
  public var answer: Answer

  public init(accepts: [AcceptedBody] = [], answer: Answer = .body(pagination: nil)) {
    self.accepts = accepts
    self.answer = answer
  }
}

/// What an endpoint speaks, with the options only that wire has: an SSE endpoint's reconnects
/// are not a gRPC endpoint's, and a JSON-RPC method is no REST endpoint's. The wires that ride
/// on an HTTP request carry their route; a gRPC endpoint has none of its own (its service and
/// method name it), so it cannot hold an HTTP method or path. REST and SSE are one wire, HTTP,
/// whose answer is a body or an event stream.
public enum EndpointOptions: Sendable, Hashable {
  /// `kind: "rest"` and `kind: "sse"`.
  case http(HTTPRoute, HTTPOptions)
  /// `kind: "grpc"`.
  case grpc(GRPCOptions)
  /// `kind: "jsonrpc"`.
  case jsonrpc(HTTPRoute, JSONRPCOptions)
  /// `kind: "websocket"` (the route of its handshake).
  case websocket(HTTPRoute, WebSocketOptions)
  /// `kind: "graphql"`.
  case graphql(HTTPRoute, GraphQLOptions)

  /// A REST endpoint: an HTTP request answered with one body.
  public static func rest(_ route: HTTPRoute, accepts: [AcceptedBody] = [], pagination: Pagination? = nil) -> Self {
    .http(route, HTTPOptions(accepts: accepts, answer: .body(pagination: pagination)))
  }

  /// An SSE endpoint: an HTTP request answered with an event stream.
  public static func sse(_ route: HTTPRoute, _ options: SSEOptions, accepts: [AcceptedBody] = []) -> Self {
    .http(route, HTTPOptions(accepts: accepts, answer: .events(options)))
  }

  /// The kind the registry names, without its options.
  public var kind: EndpointKind {
    switch self {
    case .http(_, let o):
      if case .events = o.answer { .sse } else { .rest }
    case .grpc: .grpc
    case .jsonrpc: .jsonrpc
    case .websocket: .websocket
    case .graphql: .graphql
    }
  }

  /// The HTTP request's method and path: a gRPC call's is `POST /package.Service/Method`.
  public var route: HTTPRoute {
    switch self {
    case .http(let route, _), .jsonrpc(let route, _), .websocket(let route, _), .graphql(let route, _):
      route
    case .grpc(let o): HTTPRoute(method: "POST", path: "/\(o.service)/\(o.method)")
    }
  }

  /// These options with another route, or nil for gRPC, whose route its service and method make.
  public func rerouted(_ route: HTTPRoute) -> EndpointOptions? {
    switch self {
    case .http(_, let o): .http(route, o)
    case .jsonrpc(_, let o): .jsonrpc(route, o)
    case .websocket(_, let o): .websocket(route, o)
    case .graphql(_, let o): .graphql(route, o)
    case .grpc: nil
    }
  }

  /// Changes an SSE endpoint's event options in place; false, changing nothing, for any other
  /// kind (the caller says what that means: nothing is silently dropped).
  public mutating func updateEvents(_ change: (inout SSEOptions) throws -> Void) rethrows -> Bool {
    guard case .http(let route, var o) = self, case .events(var events) = o.answer else { return false }
    try change(&events)
    o.answer = .events(events)
    self = .http(route, o)
    return true
  }

  /// These options with their pages declared, or nil for a wire whose answers come in no
  /// pages (an event stream, a WebSocket, JSON-RPC, GraphQL).
  public func paged(_ pagination: Pagination?) -> EndpointOptions? {
    switch self {
    case .http(let route, var o):
      guard case .body = o.answer else { return nil }
      o.answer = .body(pagination: pagination)
      return .http(route, o)
    case .grpc(var o):
      o.pagination = pagination
      return .grpc(o)
    case .jsonrpc, .websocket, .graphql: return nil
    }
  }
}

extension Endpoint {
  /// An SSE endpoint's options; nil for other kinds. A REST call whose answer turns out to be
  /// an event stream follows it with the call's own options (`CallRequest.untilEvent`).
  public var sse: SSEOptions? {
    if case .http(_, let o) = options, case .events(let events) = o.answer { events } else { nil }
  }

  /// The other request bodies a plain HTTP endpoint takes (`accepts`); empty for other wires.
  public var accepts: [AcceptedBody] {
    if case .http(_, let o) = options { o.accepts } else { [] }
  }

  /// How answers come in pages (`--all` follows them): a REST or gRPC endpoint's declared
  /// `pagination`; nil for one answer.
  public var pagination: Pagination? {
    switch options {
    case .http(_, let o): if case .body(let pages) = o.answer { pages } else { nil }
    case .grpc(let o): o.pagination
    case .jsonrpc, .websocket, .graphql: nil
    }
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
