import APXCore

/// `kind: "jsonrpc"`: one `JSONRPCCall` through the pipeline, alone or as a batch.
extension JSONRPCCall: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    let transport = JSONRPCCall(
      session: executor.session, environment: executor.environment,
      timeout: request.timeout ?? request.endpoint.timeout, batch: [])
    return try await executor.perform(
      transport, request, policy: try executor.retryPolicy(request), attempts: attempts, sink: sink)
  }

  /// The calls must go to one URL; the first one's retry policy and timeout apply.
  static func call(
    batch requests: [CallRequest], executor: Executor, attempts: AttemptCounter, sink: any CallEventSink
  ) async throws -> CallOutcome {
    let first = requests[0]
    let transport = JSONRPCCall(
      session: executor.session, environment: executor.environment,
      timeout: first.timeout ?? first.endpoint.timeout, batch: requests)
    return try await executor.perform(
      transport, first, policy: try executor.retryPolicy(first), attempts: attempts, sink: sink)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    let transport = JSONRPCCall(
      session: executor.session, environment: executor.environment, timeout: nil,
      batch: requests.count > 1 ? requests : [])
    let attempt = try await transport.resolve(requests[0], credentials: credentials)
    return .http(HTTPRequestPreview(kind: .jsonrpc, plan: attempt.http.plan, mask: attempt.http.mask))
  }
}
