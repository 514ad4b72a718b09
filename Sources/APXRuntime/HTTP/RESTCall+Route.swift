import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `kind: "rest"`: one `RESTCall` through the pipeline; an answer that turns out to be an
/// event stream is followed by the SSE layer.
extension RESTCall: CallRoute {
  static func call(_ request: CallRequest, executor: Executor, attempts: AttemptCounter, sink: any CallEventSink)
    async throws -> CallOutcome
  {
    // An `idempotency_key: true` endpoint gets one key per call, sent on every attempt.
    var transport = RESTCall(
      session: executor.session, environment: executor.environment,
      timeout: request.timeout ?? request.endpoint.timeout, expectStatus: request.endpoint.expectStatus,
      idempotencyKey: request.endpoint.idempotencyKey ? UUID().uuidString.lowercased() : nil,
      idempotent: request.endpoint.idempotent)
    transport.maxEvents = request.maxEvents
    transport.untilEvent = request.untilEvent
    // An answer of type text/event-stream is followed by the SSE layer, from its open body on.
    transport.followEventStream = { open, sink in
      try await SSEWatch(executor: executor).follow(request, from: open, sink: sink, attempts: attempts)
    }
    return try await executor.perform(
      transport, request, policy: try executor.retryPolicy(request), attempts: attempts, sink: sink)
  }

  static func preview(_ requests: [CallRequest], executor: Executor, credentials: Credentials) async throws
    -> RequestPreview
  {
    let request = requests[0]
    let key = request.endpoint.idempotencyKey ? UUID().uuidString.lowercased() : nil
    let attempt = try await HTTPAttempt.resolve(
      request, environment: executor.environment, credentials: credentials, idempotencyKey: key)
    return .http(HTTPRequestPreview(kind: .rest, plan: attempt.plan, mask: attempt.mask))
  }
}
