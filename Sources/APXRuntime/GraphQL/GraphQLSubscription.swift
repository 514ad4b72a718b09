import APXCore

/// A GraphQL subscription, watched like a stream: over WebSocket with graphql-transport-ws (the
/// default; an `http(s)` URL connects as `ws(s)`), or over SSE in "distinct connections" mode
/// (`--graphql-transport sse`, a registry's `"transport": "sse"`). Each result's `data` is one
/// message; `--until`, `--max-messages` and the endpoint's `reconnect` apply on both carriers.
enum GraphQLSubscription {
  static func call(
    _ request: CallRequest, envelope: GraphQLEnvelope, executor: Executor, attempts: AttemptCounter,
    sink: any CallEventSink
  ) async throws -> CallOutcome {
    let options = request.endpoint.graphql ?? GraphQLOptions(document: "")
    let stream = GraphQLStream(
      envelope: envelope,
      delivery: try GraphQLResultDelivery(name: envelope.name, options: options, maxEvents: request.maxEvents))
    switch options.transport ?? .ws {
    case .ws:
      return try await WebSocketWatch.run(
        request, options: webSocketOptions(options), graphQL: stream, executor: executor, attempts: attempts,
        sink: sink)
    case .sse:
      try refuseMessageSize(options, name: envelope.name)
      return try await SSEWatch(executor: executor).run(request, sink: sink, attempts: attempts, graphQL: stream)
    }
  }

  /// `--max-message-size` bounds WebSocket messages; over SSE it would be ignored.
  static func refuseMessageSize(_ options: GraphQLOptions, name: String) throws(APXError) {
    guard options.maxMessageSize != nil else { return }
    throw APXError(
      .usage, "\(name): --max-message-size applies to a subscription over WebSocket, and this one goes over SSE",
      hint: "drop --max-message-size, or carry it over ws (--graphql-transport ws)")
  }

  static func preview(
    _ request: CallRequest, envelope: GraphQLEnvelope, executor: Executor, credentials: Credentials
  ) async throws -> RequestPreview {
    let options = request.endpoint.graphql ?? GraphQLOptions(document: "")
    switch options.transport ?? .ws {
    case .ws:
      return try await WebSocketWatch.preview(
        request, options: webSocketOptions(options), graphQL: envelope, executor: executor, credentials: credentials)
    case .sse:
      try refuseMessageSize(options, name: envelope.name)
      let connection = SSEConnection(
        session: executor.session, environment: executor.environment, endpointName: envelope.name,
        endsWithEvent: true, userHeaders: request.headers,
        stream: SSEStreamState(
          schedule: SSEReconnectSchedule(policy: try SSEWatch.reconnectPolicy(options.reconnect, endpoint: "")),
          delivery: try SSEDelivery(endpointName: envelope.name, options: SSEOptions(), maxEvents: nil)),
        graphQL: envelope)
      let attempt = try await connection.resolve(request, credentials: credentials)
      return .http(HTTPRequestPreview(kind: .graphql, plan: attempt.plan, mask: attempt.mask))
    }
  }

  /// The WebSocket settings of a subscription: its reconnection; the stop conditions are the
  /// results' own (`GraphQLResultDelivery`), since the protocol's messages are not results.
  static func webSocketOptions(_ options: GraphQLOptions) -> WebSocketOptions {
    WebSocketOptions(
      reconnect: options.reconnect, maxMessageSize: options.maxMessageSize ?? WebSocketOptions.defaultMaxMessageSize)
  }
}
