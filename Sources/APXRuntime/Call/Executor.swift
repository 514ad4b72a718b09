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

  /// Applies credentials to each request.
  public let auth: AuthApplier

  /// Time source and sleeper for retry waits (injected by tests).
  public let clock: any RetryClock

  /// Makes an executor for one run.
  ///
  /// - Parameters:
  ///   - tokens: fetches OAuth2 / `token_command` tokens (the CLI passes a `TokenManager` on the
  ///     user's token store); nil gives a `TokenManager` that keeps tokens in memory for this executor.
  ///   - tokenOverride: a bearer token from `--token-stdin`, used instead of the registry's auth.
  ///   - clock: the clock retries wait on (and token expiry, for the default token manager).
  public init(
    session: HTTPSession, environment: [String: String], tokens: (any TokenSource)? = nil, tokenOverride: String? = nil,
    clock: any RetryClock = SystemRetryClock()
  ) {
    self.session = session
    self.environment = environment
    let source = tokens ?? TokenManager(session: session, environment: environment, store: nil, clock: clock)
    self.auth = AuthApplier(environment: environment, tokens: source, tokenOverride: tokenOverride)
    self.clock = clock
  }

  /// Performs one call; errors carry their exit status.
  public func call(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    switch request.endpoint.kind {
    case .rest, .jsonrpc:
      return try await callREST(request, sink: sink)
    case .sse:
      // Reconnection, Last-Event-ID, polling fallback and progress: see SSEWatch.
      return try await SSEWatch(executor: self).run(request, sink: sink)
    case .grpc:
      // Schema loading, the four call shapes, metadata, TLS, retries: see GRPCCall.
      // Settings and the run's schema cache come from the GRPCSession in scope.
      return try await GRPCCall(executor: self, session: GRPCSession.current ?? GRPCSession()).run(request, sink: sink)
    }
  }

  /// The HTTP request for a REST/SSE call, with templates resolved and its secrets registered.
  ///
  /// - Parameters:
  ///   - forceRefresh: fetch a new token even if the stored one looks valid.
  ///   - rejectedToken: the token the server just refused (401); a new one is fetched
  ///     unless another call already replaced it.
  ///   - idempotencyKey: sent as `Idempotency-Key` unless the request already has one.
  public func plan(
    for request: CallRequest, forceRefresh: Bool = false, rejectedToken: String? = nil, idempotencyKey: String? = nil
  ) async throws -> (HTTPRequestPlan, SecretMask) {
    var input = RequestBuilder.Input(values: request.values, data: request.data, headers: request.headers)
    input.boundary = "apx-" + UUID().uuidString.lowercased()
    var plan = try RequestBuilder(api: request.api, endpoint: request.endpoint, baseURL: request.baseURL).build(input)
    var mask = SecretMask(secrets: plan.secrets)
    plan.headers = try plan.headers.map { HeaderField($0.name, try TemplateResolver.resolveText($0.value, environment: environment, mask: &mask)) }
    if let idempotencyKey, plan.header("Idempotency-Key") == nil { plan.setHeader("Idempotency-Key", idempotencyKey) }
    try await auth.apply(
      AuthApplier.effective(api: request.api, endpoint: request.endpoint), to: &plan, mask: &mask, api: request.api,
      environmentName: request.environmentName, baseURL: request.baseURL, forceRefresh: forceRefresh,
      rejectedToken: rejectedToken)
    return (plan, mask)
  }

  /// A REST (or JSON-RPC) call: auth, then retry, then the transport. The
  /// retry policy is the endpoint's over the API's over the defaults, with
  /// `--retry N` / `--no-retry` on top; POST and PATCH are retried only when
  /// the endpoint is idempotent or the request has an Idempotency-Key (an
  /// `idempotency_key: true` endpoint gets one key, reused on every attempt).
  /// A 401 on a refreshable auth (OAuth2, token command) refreshes the token
  /// once and replays the request.
  func callREST(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    let policy = try RetryPolicy.effective(
      api: request.api.retry, endpoint: request.endpoint.retry, maxAttemptsOverride: request.maxAttemptsOverride)
    let key = request.endpoint.idempotencyKey ? UUID().uuidString.lowercased() : nil
    let (plan, mask) = try await plan(for: request, idempotencyKey: key)
    var options = RESTCallOptions(
      timeout: request.timeout ?? request.endpoint.timeout, expectStatus: request.endpoint.expectStatus, mask: mask,
      retry: policy,
      retrySafe: isRetrySafe(
        method: plan.method, idempotent: request.endpoint.idempotent,
        hasIdempotencyKey: plan.header("Idempotency-Key") != nil),
      clock: clock)
    let authConfig = AuthApplier.effective(api: request.api, endpoint: request.endpoint)
    if auth.tokenOverride == nil, AuthApplier.isRefreshable(authConfig) {
      options.reauthorize = { [self] rejected in
        try await self.plan(for: request, rejectedToken: AuthApplier.bearerToken(in: rejected), idempotencyKey: key)
      }
    }
    let result = try await RESTCall(session: session).run(plan, options: options, sink: sink)
    return CallOutcome(status: result.status, headers: result.headers)
  }
}
