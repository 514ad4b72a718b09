import APXCore

/// `kind: "graphql"`: one `GraphQLCall` through the pipeline.
extension GraphQLCall: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    let transport = GraphQLCall(
      session: executor.session, environment: executor.environment, timeout: request.timeout ?? request.endpoint.timeout
    )
    return try await executor.perform(
      transport, request, policy: try executor.retryPolicy(request), attempts: attempts, sink: sink)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    let transport = GraphQLCall(session: executor.session, environment: executor.environment, timeout: nil)
    let attempt = try await transport.resolve(requests[0], credentials: credentials)
    return .http(HTTPRequestPreview(kind: .graphql, plan: attempt.http.plan, mask: attempt.http.mask))
  }
}
