import APXCore
import NIOCore

/// `kind: "websocket"`: watches a WebSocket endpoint. Each connection (`WebSocketConnection`) is
/// sent through the executor's auth layer, which refreshes refused credentials once; a
/// connection that drops before `until` or the message limit is met reconnects after the
/// registry's `reconnect.delays` and resends `send`; `reconnect.max_failures` connections in a
/// row that bring no message end the watch with a network error. `--timeout` bounds the whole
/// watch, handshakes and waits included.
struct WebSocketWatch: CallRoute {
  /// The hint of refused credentials on a call that sent none from a registry: `apx auth status`
  /// would mean nothing there.
  static let noAuthHint =
    "this call sends only the credentials given on its command line (--bearer TOKEN, -H 'Authorization: ...', "
    + "--subprotocol NAME.TOKEN): check them, or give some"

  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    try await run(
      request, options: request.endpoint.websocket ?? WebSocketOptions(), graphQL: nil, executor: executor,
      attempts: attempts, sink: sink)
  }

  /// Watches `request` with `options`; with `graphQL`, as a GraphQL subscription over
  /// graphql-transport-ws, its results delivered by that delivery.
  static func run(
    _ request: CallRequest, options: WebSocketOptions, graphQL: GraphQLStream?, executor: Executor,
    attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let name = SSEWatch.displayName(request)
    let watch = { @Sendable () async throws -> CallOutcome in
      try await Self.watch(
        request, name: name, options: options, graphQL: graphQL, executor: executor, attempts: attempts, sink: sink)
    }
    guard let timeout = request.timeout ?? request.endpoint.timeout else { return try await watch() }
    guard timeout.isFinite, timeout > 0 else {
      throw APXError(.usage, "the timeout must be a positive number of seconds, got \(timeout)")
    }
    return try await withThrowingTaskGroup(of: CallOutcome?.self) { group in
      group.addTask { try await watch() }
      group.addTask {
        try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let outcome = first else {
        throw APXError(
          .timeout, "watching \(name) timed out after \(SSEWatch.seconds(timeout))",
          hint: "raise the limit with --timeout SECONDS, or stop earlier with --max-messages N or --until PATH==VALUE")
      }
      return outcome
    }
  }

  private static func watch(
    _ request: CallRequest, name: String, options: WebSocketOptions, graphQL: GraphQLStream?,
    executor: Executor, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let delivery = try WebSocketDelivery(endpointName: name, options: options, maxEvents: request.maxEvents)
    let state = WebSocketWatchState(delivery: delivery)
    state.graphQL = graphQL?.delivery
    let connection = WebSocketConnection(
      session: executor.session, environment: executor.environment, endpointName: name, options: options,
      state: state, graphQL: graphQL?.envelope)
    let delays = options.reconnect.delays.isEmpty ? [5.0] : options.reconnect.delays
    var attempt = 0
    var failedInARow = 0
    while true {
      attempt += 1
      attempts.value = attempt
      let context = AttemptContext(number: attempt, timeout: nil, deadline: .distantFuture)
      let failure: AttemptFailure
      do {
        var outcome = try await executor.authorized(connection, request, timeout: nil, sink: sink) { resolved, _, _ in
          try await connection.send(resolved, context: context, sink: sink)
        }
        outcome.attempts = attempt
        try state.graphQL?.finish()
        return outcome
      } catch let error as AttemptFailure {
        failure = error
      }
      guard failure.outcome != nil, !failure.credentialsRejected else {
        guard failure.credentialsRejected else { throw failure.error }
        // A refused handshake (401, 403) or a 1008 close is exit 8, with or without registry auth
        // (after one refresh when there is one): the credentials, or their absence, are the problem.
        var error = failure.error
        error.status = .auth
        if case .none = AuthApplier.effective(api: request.api, endpoint: request.endpoint) {
          error.hint = Self.noAuthHint
        }
        throw error
      }
      if failure.outcome == .hostNotFound {
        throw Executor.gaveUp(failure.error, reason: .hostNotFound, attempts: attempt, safety: .safe)
      }
      if state.deliveredMessages { failedInARow = 0 } else { failedInARow += 1 }
      guard failedInARow < options.reconnect.maxFailures else {
        throw APXError(
          .network,
          "gave up watching \(name): \(failedInARow) connection attempt\(failedInARow == 1 ? "" : "s") in a row "
            + "failed (\(attempt) in all)",
          hint: "check that the server is up, or raise reconnect.max_failures in the registry",
          cause: [failure.error.message, failure.error.cause].compactMap { $0 }.joined(separator: ": "))
      }
      let delay = delays[min(max(failedInARow - 1, 0), delays.count - 1)]
      let reason = state.interruption ?? failure.error.message
      try sink.receive(.reconnecting(after: delay, reason: reason, lastEventID: nil))
      try await executor.clock.sleep(seconds: delay)
    }
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    try await preview(
      requests[0], options: requests[0].endpoint.websocket ?? WebSocketOptions(), graphQL: nil, executor: executor,
      credentials: credentials)
  }

  /// The handshake `request` would send; with `graphQL`, its body shows the `subscribe` message.
  static func preview(
    _ request: CallRequest, options: WebSocketOptions, graphQL: GraphQLEnvelope?, executor: Executor,
    credentials: Credentials
  ) async throws -> RequestPreview {
    let connection = WebSocketConnection(
      session: executor.session, environment: executor.environment, endpointName: request.endpoint.name,
      options: options,
      state: WebSocketWatchState(
        delivery: try WebSocketDelivery(endpointName: request.endpoint.name, options: options, maxEvents: nil)),
      graphQL: graphQL)
    let attempt = try await connection.resolve(request, credentials: credentials)
    var plan = attempt.plan
    if !attempt.subprotocols.isEmpty {
      plan.setHeader("Sec-WebSocket-Protocol", attempt.subprotocols.joined(separator: ", "))
    }
    if let subscribe = attempt.graphQL?.subscribeMessage {
      plan.body = .bytes(Array(subscribe.utf8), contentType: "application/json")
    } else if let first = attempt.messages.first {
      plan.body = .bytes(Array(first.utf8), contentType: "text/plain")
    }
    return .http(HTTPRequestPreview(kind: .websocket, plan: plan, mask: attempt.mask))
  }
}
