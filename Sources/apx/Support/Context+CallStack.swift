import APXCore
import APXRuntime

extension Context {
  /// The call stack of a command's calls, from its flags: the HTTP session with the cookie
  /// session `cookieSession` names (read before, stored after, whatever the outcome), the gRPC
  /// session, tokens fetched into the user's store, and the Executor. Warnings go to stderr.
  ///
  /// - Parameters:
  ///   - global: the global flags with the config file's defaults applied.
  ///   - tls: the registry's TLS files for the APIs called, if any.
  ///   - onToken: told of every token fetched (a recipe masks it in its journal and report).
  ///   - observe: told of every token request (`-v`, `--har`).
  ///   - apis: the APIs called, whose `${keychain:NAME}` secrets are read before the first call.
  func withCallStack<T: Sendable>(
    _ global: GlobalOptions, tls: TLSFiles?, cookieSession: String? = nil, tokenOverride: String? = nil,
    har: HARLog? = nil, onToken: (@Sendable (StoredToken) -> Void)? = nil,
    observe: (@Sendable (CallEvent) -> Void)? = nil, apis: [APIDefinition] = [], _ body: (CallStack) async throws -> T
  ) async throws -> T {
    try await CookieSession.with(cookieSession, self) { jar in
      var http = try global.sessionOptions(environment, tls: tls)
      http.cookies = jar
      let store = try TokenStore.standard(environment: environment)
      let tokens = CallStack.Tokens.fetched(
        store: store, timeout: global.timeout, onToken: onToken, warn: { self.warn($0) }, observe: observe)
      let options = CallStack.Options(
        http: http, grpc: try global.grpcSettings(environment, tls: tls),
        environment: try await KeychainSecrets.load(for: apis, into: environment, store: store), tokens: tokens,
        tokenOverride: tokenOverride, har: har)
      return try await CallStack.with(options, body)
    }
  }
}
