import APXCore
import Foundation

/// Runs calls of every kind: resolves the request (templates, auth), then
/// the transport for the endpoint's kind, reporting `CallEvent`s to a sink.
/// One executor lives for one run (a command or a recipe) and owns the
/// transports' lifetimes through the session it is given.
public struct Executor: Sendable {
  public let session: HTTPSession
  /// The process environment, for `${env:NAME}` templates.
  public let environment: [String: String]

  public init(session: HTTPSession, environment: [String: String]) {
    self.session = session
    self.environment = environment
  }

  /// Performs one call; errors carry their exit status.
  public func call(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    switch request.endpoint.kind {
    case .rest, .jsonrpc:
      let (plan, mask) = try plan(for: request)
      let result = try await RESTCall(session: session).run(
        plan, options: RESTCallOptions(timeout: request.timeout ?? request.endpoint.timeout, expectStatus: request.endpoint.expectStatus, mask: mask),
        sink: sink)
      return CallOutcome(status: result.status, headers: result.headers)
    case .sse:
      // Reconnection, Last-Event-ID, polling fallback and progress: see SSEWatch.
      return try await SSEWatch(executor: self).run(request, sink: sink)
    case .grpc:
      throw APXError(.usage, "gRPC endpoints are not supported by this build yet", hint: "use a REST endpoint")
    }
  }

  /// The HTTP request for a REST/SSE call, with templates resolved and its secrets registered.
  public func plan(for request: CallRequest) throws -> (HTTPRequestPlan, SecretMask) {
    var input = RequestBuilder.Input(values: request.values, data: request.data, headers: request.headers)
    input.boundary = "apx-" + UUID().uuidString.lowercased()
    var plan = try RequestBuilder(api: request.api, endpoint: request.endpoint, baseURL: request.baseURL).build(input)
    var mask = SecretMask(secrets: plan.secrets)
    plan.headers = try plan.headers.map { HeaderField($0.name, try TemplateResolver.resolveText($0.value, environment: environment, mask: &mask)) }
    return (plan, mask)
  }
}
