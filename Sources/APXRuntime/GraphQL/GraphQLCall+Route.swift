import APXCore

/// `kind: "graphql"`: a query or mutation is one `GraphQLCall` through the pipeline; a
/// subscription is watched (`GraphQLSubscription`).
extension GraphQLCall: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    let envelope = try GraphQLEnvelope(request)
    if envelope.isSubscription {
      return try await GraphQLSubscription.call(
        request, envelope: envelope, executor: executor, attempts: attempts, sink: sink)
    }
    let transport = GraphQLCall(
      session: executor.session, environment: executor.environment, timeout: request.timeout ?? request.endpoint.timeout
    )
    return try await executor.perform(
      transport, request, policy: try executor.retryPolicy(request), attempts: attempts, sink: sink)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    let envelope = try GraphQLEnvelope(requests[0])
    if envelope.isSubscription {
      return try await GraphQLSubscription.preview(
        requests[0], envelope: envelope, executor: executor, credentials: credentials)
    }
    let transport = GraphQLCall(session: executor.session, environment: executor.environment, timeout: nil)
    let attempt = try await transport.resolve(requests[0], credentials: credentials)
    return .http(HTTPRequestPreview(kind: .graphql, plan: attempt.http.plan, mask: attempt.http.mask))
  }
}
