import APXCore

/// How a call of one endpoint kind goes through the `Executor`: the kind's transport run
/// through the pipeline (for SSE, the watch that sends each connection through it), and what
/// its first attempt would send. Each transport's folder declares its route; the executor
/// asks `TransportCatalog` for the one of a request's kind and names no protocol itself.
protocol CallRoute {
  /// Runs `request` with `executor`'s auth and retry layers, counting attempts in `attempts`.
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome

  /// Sends several calls of this kind as one request (`EndpointKind.batches`).
  static func call(
    batch requests: [CallRequest], executor: Executor, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome

  /// What the call (or, for several requests, the batch) would send, built by the code of
  /// its first attempt with `credentials`; nothing is sent.
  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
}

extension CallRoute {
  /// Kinds that do not batch refuse a batch, as the command line and the recipe validator
  /// do before it gets here.
  static func call(
    batch requests: [CallRequest], executor: Executor, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let kind = requests.first?.endpoint.kind.rawValue ?? "this kind of"
    throw APXError(.usage, "\(kind) calls cannot be sent as a batch", hint: "call each on its own, without +")
  }
}

/// The one place that maps an endpoint kind to the transport that carries it.
enum TransportCatalog {
  /// The route of `kind`'s calls.
  static func route(for kind: EndpointKind) -> any CallRoute.Type {
    switch kind {
    case .rest: RESTCall.self
    case .sse: SSEWatch.self
    case .grpc: GRPCCall.self
    case .jsonrpc: JSONRPCCall.self
    case .websocket: WebSocketWatch.self
    case .graphql: GraphQLCall.self
    }
  }
}
