public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Gets, stores, reuses and refreshes tokens for OAuth2 client credentials
/// and `token_command` auth: the `TokenSource` of a run.
///
/// - Reuse: a token is used until shortly before it expires
///   (`StoredToken.refreshMargin`), from memory or from the token store.
/// - One refresh per key: concurrent callers needing a token for the same API
///   and environment share a single in-flight request (exactly one token
///   request however many wait); a file lock makes other apx processes wait
///   for it too, and then reuse what it stored.
/// - OAuth2 refreshes with the stored refresh token when there is one, and
///   falls back to client credentials when the server refuses it.
/// - Token commands are cached until the expiry they report or the
///   configured `lifetime`; without either, for this run only.
public actor TokenManager: TokenSource {
  /// Where tokens persist between runs; nil keeps them in memory only.
  public nonisolated let store: TokenStore?
  /// The HTTP session token requests go through (a login on the demo follows its page with it).
  public nonisolated let session: HTTPSession
  let environment: [String: String]
  let clock: any RetryClock
  /// Seconds one token request or token command may take (`--timeout`); nil: the defaults
  /// (a request waits as long as any request, a command is stopped after 60 s).
  let timeout: Double?

  struct Key: Hashable {
    var api: String
    var environment: String
  }

  /// What the caller needs.
  enum Need: Sendable {
    /// Any usable token.
    case reuse
    /// A new token, whatever is stored (`apx auth login`).
    case fresh
    /// A token other than this one, which the server refused.
    case replace(String)

    func accepts(_ token: StoredToken, origin: String, now: Double) -> Bool {
      guard token.origin == origin, token.isUsable(at: now) else { return false }
      switch self {
      case .reuse: return true
      case .fresh: return false
      case .replace(let rejected): return token.accessToken != rejected
      }
    }
  }

  /// Told of every token this manager hands out, so a run can mask it where a server echoes it.
  let onToken: (@Sendable (StoredToken) -> Void)?
  /// Gets the one-line warning when the token store cannot be written.
  let warn: (@Sendable (String) -> Void)?
  /// Told of each token request and its answer's head (masked), for `-v`.
  let observe: (@Sendable (CallEvent) -> Void)?
  /// The store's folder failed: said once, and not tried again by this process.
  private var storeFailure: TokenStoreFailure?

  private var memory: [Key: StoredToken] = [:]
  private var inFlight: [Key: Task<(StoredToken, TokenStoreFailure?), any Error>] = [:]

  /// A manager for one run.
  ///
  /// - Parameters:
  ///   - session: the HTTP session token requests go through.
  ///   - environment: the process environment (`${env:...}` in auth fields, PATH for commands).
  ///   - store: the token store (`TokenStore.standard(environment:)`), or nil for memory only.
  ///   - clock: decides when tokens count as expired.
  ///   - timeout: seconds one token request or token command may take (`--timeout`).
  ///   - warn: gets a one-line warning when the store's folder cannot be written (read-only,
  ///     full): the token is then used for this process only, and the call goes on.
  ///   - onToken: told of each token (new or stored) the first time it is handed out; a recipe
  ///     run adds its access and refresh tokens to the masks of its journal and reports.
  ///   - observe: told of each OAuth2 token request (`.requestSent`) and its answer's head
  ///     (`.responseHead`), secrets masked, for `-v`; never of the answer's body.
  public init(
    session: HTTPSession, environment: [String: String], store: TokenStore?,
    clock: any RetryClock = SystemRetryClock(), timeout: Double? = nil,
    onToken: (@Sendable (StoredToken) -> Void)? = nil, warn: (@Sendable (String) -> Void)? = nil,
    observe: (@Sendable (CallEvent) -> Void)? = nil
  ) {
    self.onToken = onToken
    self.warn = warn
    self.observe = observe
    self.session = session
    self.environment = environment
    self.store = store
    self.clock = clock
    self.timeout = timeout
  }

  /// A usable token (stored or new); `forceRefresh` always gets a new one.
  public func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, forceRefresh: Bool
  ) async throws -> String {
    try await obtain(auth, api: api, environment: environment, baseURL: baseURL, need: forceRefresh ? .fresh : .reuse)
      .accessToken
  }

  /// A token other than `rejected`: fetched once however many callers report the same rejection.
  public func token(
    for auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, rejected: String
  ) async throws -> String {
    try await obtain(auth, api: api, environment: environment, baseURL: baseURL, need: .replace(rejected)).accessToken
  }

  /// Runs the flow now and stores the new token (`apx auth login`).
  /// - Throws: `.auth` when the token cannot be stored: a login is for later processes.
  /// - Parameter interaction: how a user's login (`oauth2_authorization_code`,
  ///   `oauth2_device_code`) shows its URL or code; other flows need none.
  public func login(
    _ auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String,
    interaction: LoginInteraction? = nil
  ) async throws -> StoredToken {
    let token = try await obtain(
      auth, api: api, environment: environment, baseURL: baseURL, need: .fresh, interaction: interaction)
    if let storeFailure {
      throw APXError(
        .auth, "cannot save the token in \(storeFailure.directory): \(storeFailure.reason)",
        hint: "check the folder's permissions and free space, or set APX_STATE_DIR to a writable folder",
        cause: storeFailure.reason, underlying: storeFailure)
    }
    return token
  }

  /// A usable token with its details (`apx auth token`, and status after a refresh).
  public func current(_ auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String) async throws
    -> StoredToken
  {
    try await obtain(auth, api: api, environment: environment, baseURL: baseURL, need: .reuse)
  }

  /// The stored token `current` would hand out as it is, without fetching: made with the
  /// API's current auth settings and not about to expire; nil otherwise (`apx auth status`).
  /// - Throws: when the settings do not resolve (a secret's variable is unset), as `current` would.
  public func usableStored(_ auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String)
    async throws(APXError) -> StoredToken?
  {
    let flow = try Flow.make(
      auth, api: api, environmentName: environment, baseURL: baseURL, environment: self.environment)
    guard let token = try await stored(api: api.name, environment: environment),
      Need.reuse.accepts(token, origin: flow.origin, now: clock.now())
    else { return nil }
    return token
  }

  /// The stored token of `api` in `environment`, without fetching anything.
  public func stored(api: String, environment: String) async throws(APXError) -> StoredToken? {
    if let token = memory[Key(api: api, environment: environment)] { return token }
    return try await store?.read(api: api, environment: environment)
  }

  /// Forgets the token of `api` in `environment`; true when one was stored.
  public func logout(api: String, environment: String) async throws -> Bool {
    let key = Key(api: api, environment: environment)
    let inMemory = memory.removeValue(forKey: key) != nil
    guard let store else { return inMemory }
    return try await store.withLock(api: api, environment: environment) {
      try await store.delete(api: api, environment: environment)
    } || inMemory
  }

  /// Revokes the stored token of a user's login at the server's revocation endpoint (RFC
  /// 7009), then forgets it. `revoked` is nil when there was nothing to revoke there (another
  /// auth type, no revocation endpoint, no token). A refused revocation keeps the token.
  public func logout(
    _ auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, revoke: Bool
  ) async throws -> (removed: Bool, revoked: Bool?) {
    var revoked: Bool?
    if revoke, case .oauth2Login(let config) = auth,
      let token = try await stored(api: api.name, environment: environment)
    {
      let settings = try OAuth2LoginSettings.resolve(
        config, api: api, environmentName: environment, baseURL: baseURL, environment: self.environment)
      let login = OAuth2Login(
        client: OAuth2TokenClient(session: session, clock: clock, timeout: timeout, observe: observe))
      revoked = try await login.revoke(token, settings) ? true : nil
    }
    return (try await logout(api: api.name, environment: environment), revoked)
  }

  /// The token for `need`: from memory, else from an in-flight fetch, else a new fetch.
  func obtain(
    _ auth: AuthConfig, api: APIDefinition, environment: String, baseURL: String, need: Need,
    interaction: LoginInteraction? = nil
  ) async throws -> StoredToken {
    let key = Key(api: api.name, environment: environment)
    let flow = try Flow.make(
      auth, api: api, environmentName: environment, baseURL: baseURL, environment: self.environment)
    while true {
      if let token = memory[key], need.accepts(token, origin: flow.origin, now: clock.now()) { return token }
      if let running = inFlight[key] {
        // Join the fetch already under way; check its result against what we need.
        let token = try await running.value.0
        if case .replace(let rejected) = need, token.accessToken == rejected { continue }
        return token
      }
      let task = Task.detached {
        [store = storeFailure == nil ? store : nil, session, clock, timeout, environment = self.environment, observe] in
        try await Self.fetch(
          flow, need: need, store: store, session: session, clock: clock, timeout: timeout, environment: environment,
          api: api, observe: observe, interaction: interaction)
      }
      inFlight[key] = task
      let result: Result<(StoredToken, TokenStoreFailure?), any Error> = await task.result
      inFlight[key] = nil
      let (token, failure) = try result.get()
      if let failure, storeFailure == nil {
        storeFailure = failure
        warn?(
          "apx: warning: cannot save the token in \(failure.directory) (\(failure.reason)); "
            + "using it for this process only")
      }
      memory[key] = token
      onToken?(token)
      return token
    }
  }

  /// Under the store's lock: reuse what another process stored if it fits, else fetch and store.
  /// A store whose folder cannot be written does not stop the call: the token is fetched
  /// (once) and returned with the `TokenStoreFailure`, for this process to use and warn about.
  static func fetch(
    _ flow: Flow, need: Need, store: TokenStore?, session: HTTPSession, clock: any RetryClock, timeout: Double?,
    environment: [String: String], api: APIDefinition, observe: (@Sendable (CallEvent) -> Void)? = nil,
    interaction: LoginInteraction? = nil
  ) async throws -> (StoredToken, TokenStoreFailure?) {
    let work = { (writable: Bool) async throws -> (StoredToken, TokenStoreFailure?) in
      let stored = try await store?.read(api: flow.apiName, environment: flow.environmentName)
      if let stored, need.accepts(stored, origin: flow.origin, now: clock.now()) { return (stored, nil) }
      let previous = stored.flatMap { $0.origin == flow.origin ? $0 : nil }
      let token = try await flow.run(
        previous: previous, session: session, clock: clock, timeout: timeout, environment: environment, api: api,
        observe: observe, interaction: interaction)
      guard let store, writable, flow.persists(token) else { return (token, nil) }
      do {
        try await store.write(token)
      } catch let error as APXError {
        guard let failure = error.underlying as? TokenStoreFailure else { throw error }
        return (token, failure)
      }
      return (token, nil)
    }
    guard let store else { return try await work(false) }
    do {
      return try await store.withLock(api: flow.apiName, environment: flow.environmentName) { try await work(true) }
    } catch let error as APXError {
      // The lock could not be taken because the folder cannot be written: nothing was fetched yet.
      guard let failure = error.underlying as? TokenStoreFailure else { throw error }
      let (token, _) = try await work(false)
      return (token, failure)
    }
  }
}

/// One API's token flow with its settings resolved.
struct Flow: Sendable {
  enum Kind: Sendable {
    case oauth2(OAuth2TokenClient.Settings)
    /// A user's login: run by `apx auth login`, refreshed by calls.
    case login(OAuth2LoginSettings)
    case command([String], lifetime: Double?)
  }

  var kind: Kind
  var apiName: String
  var environmentName: String
  /// Identifies the settings in the store (no secrets).
  var origin: String

  static func make(
    _ auth: AuthConfig, api: APIDefinition, environmentName: String, baseURL: String, environment: [String: String]
  ) throws(APXError) -> Flow {
    switch auth {
    case .oauth2ClientCredentials(let config):
      let settings = try OAuth2TokenClient.settings(
        config, api: api, environmentName: environmentName, baseURL: baseURL, environment: environment)
      return Flow(kind: .oauth2(settings), apiName: api.name, environmentName: environmentName, origin: settings.origin)
    case .oauth2Login(let config):
      let settings = try OAuth2LoginSettings.resolve(
        config, api: api, environmentName: environmentName, baseURL: baseURL, environment: environment)
      return Flow(kind: .login(settings), apiName: api.name, environmentName: environmentName, origin: settings.origin)
    case .tokenCommand(let command, let lifetime):
      // The command as written, plus a digest of its arguments as resolved: a changed
      // `${env:...}` in them runs it again.
      var mask = SecretMask()
      let resolved = command.map {
        (try? TemplateResolver.resolveText($0, environment: environment, mask: &mask)) ?? $0
      }
      return Flow(
        kind: .command(command, lifetime: lifetime), apiName: api.name, environmentName: environmentName,
        origin: TokenOrigin.make("token_command", readable: command, secrets: resolved))
    default:
      throw APXError(
        .usage, "the API \"\(api.name)\" uses \(auth.typeName) auth, which has no token to fetch",
        hint: "token management applies to oauth2_client_credentials, oauth2_authorization_code, "
          + "oauth2_device_code and token_command auth")
    }
  }

  /// Whether the token is worth keeping on disk: not a command token of unknown lifetime.
  func persists(_ token: StoredToken) -> Bool {
    if case .command = kind { return token.expiresAt != nil }
    return true
  }

  /// Gets a new token: refresh grant first when `previous` has a refresh token, else client credentials.
  func run(
    previous: StoredToken?, session: HTTPSession, clock: any RetryClock, timeout: Double?,
    environment: [String: String], api: APIDefinition, observe: (@Sendable (CallEvent) -> Void)? = nil,
    interaction: LoginInteraction? = nil
  ) async throws -> StoredToken {
    switch kind {
    case .login(let settings):
      let login = OAuth2Login(
        client: OAuth2TokenClient(session: session, clock: clock, timeout: timeout, observe: observe))
      // Only `apx auth login` brings an interaction: a call refreshes, or says to log in.
      if let interaction { return try await login.login(settings, interaction: interaction) }
      guard let previous else { throw OAuth2Login.loginAgain(settings, "no login is stored") }
      return try await login.refresh(previous, settings)
    case .oauth2(let settings):
      let client = OAuth2TokenClient(session: session, clock: clock, timeout: timeout, observe: observe)
      if let refreshToken = previous?.refreshToken, let token = try await client.refresh(refreshToken, settings) {
        return token
      }
      return try await client.clientCredentials(settings)
    case .command(let command, let lifetime):
      let now = clock.now()
      var runner = TokenCommandRunner(environment: environment)
      if let timeout, timeout < runner.timeout { (runner.timeout, runner.limitIsTimeoutFlag) = (timeout, true) }
      let output = try await runner.run(command, api: api, now: now)
      return StoredToken(
        api: apiName, environment: environmentName, type: "token_command", accessToken: output.token,
        obtainedAt: now, expiresAt: output.expiresAt ?? lifetime.map { now + $0 },
        subject: command.first.map { PathText.lastComponent($0) }, origin: origin)
    }
  }
}
