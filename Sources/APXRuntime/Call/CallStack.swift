/// One run's call machinery, built in one place: the HTTP session (TLS, proxies, cookies), the
/// token source, the gRPC session on the HTTP session's event loop, and the `Executor` over
/// them. Commands, recipes and the explorer get it from `CallStack.with` and wire nothing by
/// hand, so a run has one client with its kept-alive connections and one token cache.
public struct CallStack: Sendable {
  public let session: HTTPSession
  /// The run's gRPC clients; nil when the options asked for none.
  public let grpc: GRPCSession?
  /// The token manager, when tokens are fetched (`Tokens.fetched`).
  public let tokenManager: TokenManager?
  public let executor: Executor

  /// Where a run's tokens come from.
  public enum Tokens: Sendable {
    /// Fetched and refreshed as the auth says, and kept in `store` (nil: in memory for the run).
    case fetched(
      store: TokenStore?, timeout: Double? = nil, onToken: (@Sendable (StoredToken) -> Void)? = nil,
      warn: (@Sendable (String) -> Void)? = nil, observe: (@Sendable (CallEvent) -> Void)? = nil)
    /// From this source only (a preview reads stored tokens and fetches none).
    case source(any TokenSource)
  }

  /// What to build.
  public struct Options: Sendable {
    public var http: HTTPSessionOptions
    /// The gRPC session's settings; nil: the run makes no gRPC call.
    public var grpc: GRPCSettings?
    public var closing: SessionClosing
    /// The process environment, for `${env:NAME}` templates and token commands.
    public var environment: [String: String]
    public var tokens: Tokens
    /// A bearer token from `--token-stdin`, used instead of the registry's auth.
    public var tokenOverride: String?
    /// Where every exchange is recorded (`--har FILE`).
    public var har: HARLog?

    public init(
      http: HTTPSessionOptions, grpc: GRPCSettings? = nil, closing: SessionClosing = .atProcessExit,
      environment: [String: String], tokens: Tokens = .fetched(store: nil), tokenOverride: String? = nil,
      har: HARLog? = nil
    ) {
      self.http = http
      self.grpc = grpc
      self.closing = closing
      self.environment = environment
      self.tokens = tokens
      self.tokenOverride = tokenOverride
      self.har = har
    }
  }

  /// Runs `body` with the stack `options` describe; every session is closed as
  /// `options.closing` says when it returns.
  public static func with<T: Sendable>(_ options: Options, _ body: (CallStack) async throws -> T) async throws -> T {
    try await HTTPSession.with(options.http, closing: options.closing) { session in
      let manager: TokenManager?
      let source: any TokenSource
      switch options.tokens {
      case .fetched(let store, let timeout, let onToken, let warn, let observe):
        // One token manager per run: concurrent calls share one refresh.
        let made = TokenManager(
          session: session, environment: options.environment, store: store, timeout: timeout, onToken: onToken,
          warn: warn, observe: observe)
        (manager, source) = (made, made)
      case .source(let given):
        (manager, source) = (nil, given)
      }
      func stack(_ grpc: GRPCSession?) -> CallStack {
        var executor = Executor(
          session: session, grpc: grpc, environment: options.environment, tokens: source,
          tokenOverride: options.tokenOverride)
        executor.har = options.har
        return CallStack(session: session, grpc: grpc, tokenManager: manager, executor: executor)
      }
      guard let settings = options.grpc else { return try await body(stack(nil)) }
      return try await GRPCSession.with(settings, sharing: session, closing: options.closing) { grpc in
        try await body(stack(grpc))
      }
    }
  }
}
