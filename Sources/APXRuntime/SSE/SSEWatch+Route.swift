import APXCore

/// `kind: "sse"`: the watch, which sends each connection (`SSEConnection`) through the
/// pipeline and adds reconnection, `Last-Event-ID`, the polling fallback and progress.
extension SSEWatch: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    try await SSEWatch(executor: executor).run(request, sink: sink, attempts: attempts)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    let request = requests[0]
    var attempt = try await HTTPAttempt.resolve(request, environment: executor.environment, credentials: credentials)
    SSEConnection.prepareStreamHeaders(&attempt.plan, userHeaders: request.headers)
    return .http(HTTPRequestPreview(kind: .sse, plan: attempt.plan, mask: attempt.mask))
  }
}
