import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx auth login|status|token|logout API`: the token store, by hand.
/// Tokens are fetched and refreshed automatically by `apx call`; these
/// commands exist to log in ahead of time, inspect, pipe, and forget.
struct AuthCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "auth",
    abstract: "Log in and manage stored tokens (OAuth2 user login, client credentials, token commands).",
    discussion: """
      Tokens are kept per API and environment in the state folder ($APX_STATE_DIR, else \
      $XDG_STATE_HOME/apx, else ~/.local/state/apx; `apx config` names it), \
      in files only you can read (mode 0600). `apx call` fetches, reuses and refreshes them by itself.

      An API whose auth is oauth2_authorization_code or oauth2_device_code is a user's login: \
      `apx auth login API` runs it once (in the browser, or with a code on another device), and \
      calls then refresh its token silently. When the refresh is refused, a call stops with exit \
      8 and says to log in again; it never opens a browser.

      Only `apx auth token` ever prints a token.
      """,
    subcommands: [
      AuthLogin.self, AuthStatus.self, AuthToken.self, AuthLogout.self, AuthSetSecret.self, AuthDeleteSecret.self,
    ]
  )
}

/// `apx auth login API`: runs the API's token flow now and stores the token.
struct AuthLogin: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "login", abstract: "Get a new token for an API now and store it (prints a summary, not the token).",
    discussion: """
      For oauth2_authorization_code, apx listens on 127.0.0.1 for the redirect and opens the \
      authorization page with $BROWSER, else \(LoginPrompt.defaultOpener); it waits --timeout seconds \
      (default 300) for the browser to come back. For oauth2_device_code it prints the code and the \
      page to enter it on, and polls until the login is finished or the code expires.
      """)

  @OptionGroup var global: GlobalOptions
  @Flag(help: "Print the authorization page's URL instead of opening a browser.")
  var noBrowser = false
  @Argument(
    help: ArgumentHelp("The API (see `apx list`).", valueName: "API"), completion: .custom(APICompletion.complete))
  var api: String

  func run(in context: Context) async throws {
    try await AuthTarget.with(api, global: global, context: context) { target, tokens in
      let auth = try target.tokenAuth()
      if noBrowser, case .oauth2Login(let config) = auth, case .deviceCode = config.grant {
        throw APXError(
          .usage, "--no-browser applies to oauth2_authorization_code; the device flow opens no browser",
          hint: "drop --no-browser")
      } else if noBrowser, !auth.isUserLogin {
        throw APXError(
          .usage, "--no-browser applies to a user's login, and \(target.api.name) uses \(auth.typeName) auth",
          hint: "drop --no-browser")
      }
      let interaction = LoginPrompt.interaction(
        api: target.api.name, openBrowser: !noBrowser, timeout: global.timeout,
        demo: global.demo ? tokens.session : nil, context: context)
      let token: StoredToken
      do {
        token = try await tokens.login(
          auth, api: target.api, environment: target.environment, baseURL: target.baseURL,
          interaction: auth.isUserLogin ? interaction : nil)
        LoginPrompt.finish(context: context)
      } catch {
        LoginPrompt.finish(context: context)
        throw error
      }
      try ValuePrinter.print(
        AuthSummary.json(target: target, token: token, now: Date().timeIntervalSince1970), global: global,
        context: context)
    }
  }
}

/// `apx auth status [API]`: what is stored, never the token itself.
struct AuthStatus: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show stored tokens: API, environment, type, expiry (never the token).")

  @OptionGroup var global: GlobalOptions
  @Argument(
    help: ArgumentHelp("Only this API (in --env, or its default environment).", valueName: "API"),
    completion: .custom(APICompletion.complete))
  var api: String?

  func run(in context: Context) async throws {
    let now = Date().timeIntervalSince1970
    if let api {
      try await AuthTarget.with(api, global: global, context: context) { target, tokens in
        let token = try await tokens.stored(api: target.api.name, environment: target.environment)
        var summary = AuthSummary.withStore(
          AuthSummary.json(target: target, token: token, now: now), tokens.store)
        if let token, let auth = try? target.tokenAuth() {
          // Logged in means `apx auth token` prints this token as it is: same settings, not expired.
          var unusable: String?
          do {
            let usable = try await tokens.usableStored(
              auth, api: target.api, environment: target.environment, baseURL: target.baseURL)
            if usable == nil {
              unusable =
                token.isUsable(at: now)
                ? "stored with other auth settings: the next call or `apx auth token` fetches a new one"
                : "expired: the next call or `apx auth token` fetches a new one"
            }
          } catch {
            unusable = (error as? APXError)?.message ?? String(describing: error)
          }
          if let unusable { summary = AuthSummary.notUsable(summary, reason: unusable) }
        }
        try ValuePrinter.print(summary, global: global, context: context)
      }
      return
    }
    let store = try TokenStore.standard(environment: context.environment)
    let stored = try await store?.all() ?? []
    try ValuePrinter.print(
      .array(stored.map { AuthSummary.withStore(AuthSummary.json(token: $0, now: now), store) }), global: global,
      context: context)
  }
}

/// `apx auth token API`: prints a valid token (refreshing it if needed), for other tools.
struct AuthToken: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Print a valid token for an API (refreshed if needed): the one command that shows a token.",
    discussion: "e.g. curl -H \"Authorization: Bearer $(apx auth token books)\" ...")

  @OptionGroup var global: GlobalOptions
  @Argument(
    help: ArgumentHelp("The API (see `apx list`).", valueName: "API"), completion: .custom(APICompletion.complete))
  var api: String

  func run(in context: Context) async throws {
    try await AuthTarget.with(api, global: global, context: context) { target, tokens in
      let token: String
      if case .bearer(let template) = target.auth {
        var mask = SecretMask()
        let environment = try await KeychainSecrets.load(
          for: [target.api], into: context.environment, store: tokens.store)
        token = try TemplateResolver.resolveText(template, environment: environment, mask: &mask, secret: true)
      } else {
        token = try await tokens.current(
          try target.tokenAuth(), api: target.api, environment: target.environment, baseURL: target.baseURL
        ).accessToken
      }
      context.stdout.write(token + "\n")
      context.stdout.flush()
    }
  }
}

/// `apx auth logout API`: revokes a login's tokens where the server can, then deletes them.
struct AuthLogout: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "logout",
    abstract: "Delete the stored token of an API (in --env, or its default environment).",
    discussion: """
      A user's login (oauth2_authorization_code, oauth2_device_code) is first revoked at the \
      server's revocation endpoint (revocation_url, or the issuer's revocation_endpoint), refresh \
      token then access token. When the server refuses, the tokens stay stored and the exit is 8.
      """)

  @OptionGroup var global: GlobalOptions
  @Flag(help: "Delete the stored token without revoking it at the server.")
  var noRevoke = false
  @Argument(
    help: ArgumentHelp("The API (see `apx list`).", valueName: "API"), completion: .custom(APICompletion.complete))
  var api: String

  func run(in context: Context) async throws {
    try await AuthTarget.with(api, global: global, context: context) { target, tokens in
      if noRevoke, !target.auth.isUserLogin {
        throw APXError(
          .usage, "--no-revoke applies to a user's login, and \(target.api.name) uses \(target.auth.typeName) auth",
          hint: "drop --no-revoke: this auth's tokens are never revoked at the server")
      }
      let (removed, revoked) = try await tokens.logout(
        target.auth, api: target.api, environment: target.environment, baseURL: target.baseURL, revoke: !noRevoke)
      var members = [
        JSONMember("api", .string(target.api.name)), JSONMember("environment", .string(target.environment)),
        JSONMember("logged_out", .bool(removed)),
      ]
      if target.auth.isUserLogin { members.append(JSONMember("revoked", .bool(revoked == true))) }
      try ValuePrinter.print(.object(members), global: global, context: context)
    }
  }
}

/// `apx auth set-secret NAME`: stores a secret, read from stdin, for registries to read as
/// `${keychain:NAME}`.
struct AuthSetSecret: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "set-secret",
    abstract: "Store a secret read from stdin (a client secret, an API key) for registries to use as ${keychain:NAME}.",
    discussion: """
      The secret goes to the token store: the OS keychain where there is one, else a 0600 file in \
      the state folder (APX_TOKEN_STORE chooses, as for tokens). It is read from stdin, never from \
      the command line, and a terminal is refused so that it is not shown as it is typed: \
      apx auth set-secret auth0_client < secret.txt. One trailing newline is dropped.
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: ArgumentHelp("The secret's name, as ${keychain:NAME} writes it.", valueName: "NAME"))
  var name: String

  func run(in context: Context) async throws {
    guard KeychainSecrets.isValidName(name) else {
      throw APXError(
        .usage, "\"\(name)\" is not a secret name",
        hint: "use a letter or '_', then letters, digits and '_', as ${keychain:NAME} writes it")
    }
    guard !WebSocketOptionGroup.stdinIsTerminal else {
      throw APXError(
        .usage, "apx auth set-secret reads the secret from stdin, and stdin is a terminal",
        hint: "give it from a file or a pipe, so that it is not shown: apx auth set-secret \(name) < FILE")
    }
    var bytes = try StandardInput.readAll(limit: 1 << 20)
    if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    guard !bytes.isEmpty else {
      throw APXError(.usage, "stdin held no secret for \(name)", hint: "apx auth set-secret \(name) < FILE")
    }
    guard let store = try TokenStore.standard(environment: context.environment) else {
      throw APXError(
        .auth, "there is no folder to keep secrets in: HOME is not set",
        hint: "set APX_STATE_DIR (or XDG_STATE_HOME) to a folder of your own")
    }
    let kept = try await KeychainSecrets.write(name, String(decoding: bytes, as: UTF8.self), store: store)
    try ValuePrinter.print(
      .object([JSONMember("secret", .string(name)), JSONMember("store", .string(kept))]), global: global,
      context: context)
  }
}

/// `apx auth delete-secret NAME`: forgets a stored secret.
struct AuthDeleteSecret: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "delete-secret", abstract: "Delete a secret stored with apx auth set-secret.")

  @OptionGroup var global: GlobalOptions
  @Argument(help: ArgumentHelp("The secret's name.", valueName: "NAME"))
  var name: String

  func run(in context: Context) async throws {
    guard KeychainSecrets.isValidName(name) else {
      throw APXError(.usage, "\"\(name)\" is not a secret name", hint: "use the NAME given to apx auth set-secret")
    }
    guard let store = try TokenStore.standard(environment: context.environment) else {
      throw APXError(.auth, "there is no folder secrets are kept in: HOME is not set", hint: "set APX_STATE_DIR")
    }
    let deleted = try await KeychainSecrets.delete(name, store: store)
    try ValuePrinter.print(
      .object([JSONMember("secret", .string(name)), JSONMember("deleted", .bool(deleted))]), global: global,
      context: context)
  }
}

/// The API, environment and base URL an auth command works on, with a token manager.
struct AuthTarget {
  let api: APIDefinition
  let environment: String
  let baseURL: String
  /// The API's auth (APIs have one auth; endpoints may override it for calls).
  var auth: AuthConfig { api.auth ?? .none }

  /// Loads the API, resolves the environment, and runs `body` with a token manager on the standard store.
  static func with(
    _ name: String, global: GlobalOptions, context: Context,
    _ body: (AuthTarget, TokenManager) async throws -> Void
  ) async throws {
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let api = try registry.load(api: name)
    try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let resolved = try BaseURLResolver.resolve(
        api: api, environment: global.environment, override: global.baseURL, demo: demo,
        processEnvironment: context.environment,
        configured: context.configuredEnvironment(for: api.name))
      guard let store = try TokenStore.standard(environment: context.environment) else {
        throw APXError(
          .auth, "there is no folder to keep tokens in: HOME is not set",
          hint: "set APX_STATE_DIR (or XDG_STATE_HOME) to a folder of your own")
      }
      let target = AuthTarget(api: api, environment: resolved.environmentName, baseURL: resolved.baseURL)
      let tls = RegistryTLS.files(api: api, environment: resolved.environmentName, baseURL: resolved.baseURL)
      let options = CallStack.Options(
        http: try global.applyingConfig(context).sessionOptions(context.environment, tls: tls), closing: .graceful,
        environment: try await KeychainSecrets.load(for: [api], into: context.environment, store: store),
        tokens: .fetched(store: store, timeout: global.timeout))
      try await CallStack.with(options) { stack in
        guard let tokens = stack.tokenManager else {
          throw APXError(.internalFailure, "the call stack was built without its token manager")
        }
        try await body(target, tokens)
      }
    }
  }

  /// The auth, when it is one with tokens to manage.
  func tokenAuth() throws -> AuthConfig {
    switch auth {
    case .oauth2ClientCredentials, .oauth2Login, .tokenCommand:
      return auth
    default:
      throw APXError(
        .usage, "the API \"\(api.name)\" uses \(auth.typeName) auth, which has no token to manage",
        hint: "apx auth applies to oauth2_authorization_code, oauth2_device_code, oauth2_client_credentials "
          + "and token_command auth (see \(api.sourceFile))")
    }
  }
}

/// The JSON `apx auth status` and `login` print: never a token or secret.
enum AuthSummary {
  /// One API's status, stored token or not.
  static func json(target: AuthTarget, token: StoredToken?, now: Double) -> JSONValue {
    var members = [
      JSONMember("api", .string(target.api.name)), JSONMember("environment", .string(target.environment)),
      JSONMember("type", .string(target.auth.typeName)),
    ]
    members += details(token, now: now)
    return .object(members)
  }

  /// A stored token's status.
  static func json(token: StoredToken, now: Double) -> JSONValue {
    .object(
      [
        JSONMember("api", .string(token.api)), JSONMember("environment", .string(token.environment)),
        JSONMember("type", .string(token.type)),
      ] + details(token, now: now))
  }

  /// The status with the store that holds tokens (`file`, `secret-service`, `keychain`), and
  /// why a keychain was left for the files when it was.
  static func withStore(_ summary: JSONValue, _ store: TokenStore?) -> JSONValue {
    guard case .object(var members) = summary, let store else { return summary }
    members.append(JSONMember("store", .string(store.storeName)))
    if let fallback = store.fallback { members.append(JSONMember("store_fallback", .string(fallback))) }
    return .object(members)
  }

  /// A status whose stored token `apx auth token` would not print as it is: not logged in, and why.
  static func notUsable(_ summary: JSONValue, reason: String) -> JSONValue {
    guard case .object(var members) = summary else { return summary }
    if let index = members.firstIndex(where: { $0.key == "logged_in" }) { members[index].value = .bool(false) }
    members.append(JSONMember("reason", .string(reason)))
    return .object(members)
  }

  private static func details(_ token: StoredToken?, now: Double) -> [JSONMember] {
    guard let token else { return [JSONMember("logged_in", .bool(false))] }
    let expiresIn = token.expiresIn(at: now)
    return [
      JSONMember("logged_in", .bool(true)),
      JSONMember("client", token.subject.map(JSONValue.string) ?? .null),
      JSONMember("expires_in", expiresIn.map(JSONValue.int) ?? .null),
      JSONMember("expired", .bool(expiresIn.map { $0 <= 0 } ?? false)),
      JSONMember("has_refresh_token", .bool(token.refreshToken != nil)),
      JSONMember("scope", token.scope.map(JSONValue.string) ?? .null),
    ] + (token.idToken.map { [JSONMember("id_token", IDTokenClaims.summary($0, now: now))] } ?? [])
  }
}
