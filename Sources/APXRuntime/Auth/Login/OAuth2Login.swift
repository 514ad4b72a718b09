import APXCore

/// A user's OAuth2 login: the authorization code flow with PKCE through a loopback redirect
/// (RFC 6749 §4.1, RFC 7636, RFC 8252), the device flow (RFC 8628), the refresh of the token
/// they give, and its revocation (RFC 7009). Every error names the API and what to do; none
/// holds a code, verifier, secret or token.
struct OAuth2Login: Sendable {
  let client: OAuth2TokenClient
  var session: HTTPSession { client.session }

  /// The endpoints the settings name, the missing ones read from the issuer's discovery.
  func endpoints(_ settings: OAuth2LoginSettings) async throws -> OpenIDEndpoints {
    var named = OpenIDEndpoints(
      authorization: settings.authorizeURL, token: settings.tokenURL,
      deviceAuthorization: settings.deviceAuthorizationURL, revocation: settings.revocationURL)
    let needed: Bool =
      switch settings.config.grant {
      case .authorizationCode: named.authorization == nil || named.token == nil || named.revocation == nil
      case .deviceCode: named.deviceAuthorization == nil || named.token == nil || named.revocation == nil
      }
    guard needed, let issuer = settings.issuer else { return named }
    let found = try await OpenIDEndpoints.discover(
      issuer, session: session, timeout: client.timeout, apiName: settings.apiName, file: settings.file)
    named.authorization = named.authorization ?? found.authorization
    named.token = named.token ?? found.token
    named.deviceAuthorization = named.deviceAuthorization ?? found.deviceAuthorization
    named.revocation = named.revocation ?? found.revocation
    return named
  }

  /// Runs the login with the user, and returns the tokens it gave.
  func login(_ settings: OAuth2LoginSettings, interaction: LoginInteraction) async throws -> StoredToken {
    let endpoints = try await endpoints(settings)
    let tokenURL = try required(endpoints.token, "token_url", "token_endpoint", settings)
    switch settings.config.grant {
    case .authorizationCode(_, let port, let path):
      let authorize = try required(endpoints.authorization, "authorize_url", "authorization_endpoint", settings)
      return try await authorizationCode(
        settings, authorizeURL: authorize, tokenURL: tokenURL, port: port ?? 0, path: path, interaction: interaction)
    case .deviceCode:
      let device = try required(
        endpoints.deviceAuthorization, "device_authorization_url", "device_authorization_endpoint", settings)
      return try await deviceCode(settings, deviceURL: device, tokenURL: tokenURL, interaction: interaction)
    }
  }

  /// A new access token from the stored refresh token. A refused one ends the login: the
  /// user must log in again, which a call never does by itself.
  func refresh(_ previous: StoredToken, _ settings: OAuth2LoginSettings) async throws -> StoredToken {
    guard let refreshToken = previous.refreshToken else { throw Self.loginAgain(settings, "its token has expired") }
    let tokenURL = try required(try await endpoints(settings).token, "token_url", "token_endpoint", settings)
    guard var token = try await client.refresh(refreshToken, settings.tokenSettings(tokenURL: tokenURL)) else {
      throw Self.loginAgain(settings, "the authorization server refused its refresh token (the login has ended)")
    }
    token.idToken = token.idToken ?? previous.idToken
    return token
  }

  /// Revokes the token's refresh token and access token at the revocation endpoint; false
  /// when the server has none.
  func revoke(_ token: StoredToken, _ settings: OAuth2LoginSettings) async throws -> Bool {
    guard let url = try await endpoints(settings).revocation else { return false }
    var tokenSettings = settings.tokenSettings(tokenURL: url)
    tokenSettings.mask.add(token.accessToken)
    let pairs = [(token.refreshToken, "refresh_token"), (token.accessToken, "access_token")]
    for (value, hint) in pairs {
      guard let value else { continue }
      tokenSettings.mask.add(value)
      let answer = try await client.post(
        [HeaderField("token", value), HeaderField("token_type_hint", hint)], to: url, tokenSettings)
      // RFC 7009 §2.2: 200 whether or not the token was valid; an unsupported hint is still revoked.
      guard (200..<300).contains(answer.status) else {
        throw APXError(
          .auth,
          "the revocation endpoint \(NetworkErrorMapper.endpoint(url)) of \(settings.whereText) refused to revoke the \(hint.replacing("_", with: " ")) (HTTP \(answer.status))",
          hint:
            "the tokens are still stored: try again, or forget them without revoking: apx auth logout \(settings.apiName) --no-revoke",
          cause: answer.json?["error"]?.stringValue)
      }
    }
    return true
  }

  // MARK: - Authorization code with PKCE

  private func authorizationCode(
    _ settings: OAuth2LoginSettings, authorizeURL: String, tokenURL: String, port: Int, path: String,
    interaction: LoginInteraction
  ) async throws -> StoredToken {
    let pkce = PKCE()
    var tokenSettings = settings.tokenSettings(tokenURL: tokenURL)
    tokenSettings.mask.add(pkce.verifier)
    tokenSettings.mask.add(pkce.state)
    let listener = try await LoopbackRedirect.start(port: port, path: path)
    var query = [
      ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", listener.redirectURI),
      ("state", pkce.state), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
    ]
    if !settings.scopes.isEmpty { query.append(("scope", settings.scopes.joined(separator: " "))) }
    if let audience = settings.audience { query.append(("audience", audience)) }
    query += settings.extraParams.map { ($0.name, $0.value) }
    let url =
      authorizeURL + (authorizeURL.contains("?") ? "&" : "?")
      + query.map {
        PercentEncoding.encode($0.0, allowed: .queryComponent) + "="
          + PercentEncoding.encode($0.1, allowed: .queryComponent)
      }.joined(separator: "&")
    interaction.authorize(url)
    let answer = try await waitForRedirect(listener, timeout: interaction.redirectTimeout, settings)
    if let error = answer["error"] {
      let said = [error, answer["error_description"]].compactMap { $0 }.joined(separator: ": ")
      throw APXError(
        .auth, "the authorization server did not grant the login of \(settings.whereText): \(said)",
        hint: error == "access_denied"
          ? "the login was declined in the browser: run apx auth login \(settings.apiName) again to retry"
          : "check client_id, scopes and the client's allowed redirect URIs (http://127.0.0.1) in \(settings.file)")
    }
    // RFC 6749 §10.12: an answer that does not carry this request's state is not for it.
    guard answer["state"] == pkce.state else {
      throw APXError(
        .auth,
        "the login's redirect carried \(answer["state"] == nil ? "no state" : "another state") than the request's: it is not the answer to this login, so no code was exchanged",
        hint: "run apx auth login \(settings.apiName) again, and finish it in the browser tab it opens")
    }
    if let issuer = settings.issuer, let named = answer["iss"], named != issuer {
      // RFC 9207: the redirect names the issuer that answered; another one is a mix-up.
      throw APXError(
        .auth, "the login's redirect came from the issuer \"\(named)\", not \"\(issuer)\"; no code was exchanged",
        hint: "check \"issuer\" in \(settings.file)")
    }
    guard let code = answer["code"], !code.isEmpty else {
      throw APXError(
        .auth, "the login's redirect carried no authorization code",
        hint: "run apx auth login \(settings.apiName) again")
    }
    tokenSettings.mask.add(code)
    let fields = [
      HeaderField("grant_type", "authorization_code"), HeaderField("code", code),
      HeaderField("redirect_uri", listener.redirectURI), HeaderField("code_verifier", pkce.verifier),
    ]
    return try await grant(fields, tokenSettings, settings, step: "exchange the login's code")
  }

  private func waitForRedirect(_ listener: LoopbackRedirect, timeout: Double, _ settings: OAuth2LoginSettings)
    async throws -> [String: String]
  {
    let clock = client.clock
    return try await withThrowingTaskGroup(of: [String: String]?.self) { group in
      group.addTask { try await listener.response() }
      group.addTask {
        try await clock.sleep(seconds: timeout)
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let answer = first else {
        throw APXError(
          .auth,
          "the browser did not come back to \(listener.redirectURI) within \(Int(timeout)) s, so \(settings.whereText) is not logged in",
          hint: "finish the login in the browser; with --no-browser, open the URL apx printed yourself")
      }
      return answer
    }
  }

  // MARK: - Device code

  private func deviceCode(
    _ settings: OAuth2LoginSettings, deviceURL: String, tokenURL: String, interaction: LoginInteraction
  ) async throws -> StoredToken {
    var tokenSettings = settings.tokenSettings(tokenURL: tokenURL)
    var fields: [HeaderField] = []
    if !settings.scopes.isEmpty { fields.append(HeaderField("scope", settings.scopes.joined(separator: " "))) }
    if let audience = settings.audience { fields.append(HeaderField("audience", audience)) }
    fields += settings.extraParams
    let answer = try await client.post(fields, to: deviceURL, tokenSettings)
    guard (200..<300).contains(answer.status), let json = answer.json,
      let deviceCode = json["device_code"]?.stringValue, let userCode = json["user_code"]?.stringValue,
      let page = json["verification_uri"]?.stringValue ?? json["verification_url"]?.stringValue
    else {
      let said = [answer.json?["error"]?.stringValue, answer.json?["error_description"]?.stringValue]
        .compactMap { $0 }.joined(separator: ": ")
      throw APXError(
        .auth,
        "the device authorization endpoint \(NetworkErrorMapper.endpoint(deviceURL)) of \(settings.whereText) gave no device code (HTTP \(answer.status))",
        hint:
          "check client_id, scopes and device_authorization_url in \(settings.file); the client must allow the device flow",
        cause: said.isEmpty ? nil : tokenSettings.mask.mask(said))
    }
    tokenSettings.mask.add(deviceCode)
    let clock = client.clock
    // RFC 8628 §3.2: expires_in is required; a huge one is held to an hour, so the wait ends.
    let lifetime = min(max(json["expires_in"]?.doubleValue ?? 600, 1), 3600)
    // RFC 8628 §3.2: 5 s when the server names none; never faster than once a second, however
    // small an interval it names, and at most a minute apart.
    var interval = min(max(json["interval"]?.doubleValue ?? 5, 1), 60)
    let deadline = clock.now() + lifetime
    interaction.deviceCode(
      DeviceCodePrompt(
        userCode: userCode, verificationURI: page,
        verificationURIComplete: json["verification_uri_complete"]?.stringValue, expiresIn: Int(lifetime)))
    let poll = [
      HeaderField("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
      HeaderField("device_code", deviceCode),
    ]
    while true {
      let left = deadline - clock.now()
      guard left > 0 else { throw Self.deviceExpired(settings) }
      interaction.waiting(Int(left.rounded(.up)))
      try await clock.sleep(seconds: min(interval, left))
      switch try await client.request(poll, tokenSettings) {
      case .granted(let token):
        return token
      case .refused(let status, let code, let description):
        switch code {
        case "authorization_pending": continue
        case "slow_down": interval += 5  // RFC 8628 §3.5
        case "expired_token": throw Self.deviceExpired(settings)
        case "access_denied":
          throw APXError(
            .auth, "the login of \(settings.whereText) was declined on the verification page",
            hint: "run apx auth login \(settings.apiName) again to retry")
        default:
          throw refusal(status: status, code: code, description: description, tokenSettings, settings, step: "poll")
        }
      }
    }
  }

  static func deviceExpired(_ settings: OAuth2LoginSettings) -> APXError {
    APXError(
      .auth, "the device code of \(settings.whereText) expired before the login was finished",
      hint: "run apx auth login \(settings.apiName) again, and enter the new code before it expires")
  }

  // MARK: - Shared

  private func grant(
    _ fields: [HeaderField], _ tokenSettings: OAuth2TokenClient.Settings, _ settings: OAuth2LoginSettings,
    step: String
  ) async throws -> StoredToken {
    switch try await client.request(fields, tokenSettings) {
    case .granted(let token): return token
    case .refused(let status, let code, let description):
      throw refusal(status: status, code: code, description: description, tokenSettings, settings, step: step)
    }
  }

  private func refusal(
    status: Int, code: String?, description: String?, _ tokenSettings: OAuth2TokenClient.Settings,
    _ settings: OAuth2LoginSettings, step: String
  ) -> APXError {
    let said = [code, description].compactMap { $0 }.joined(separator: ": ")
    return APXError(
      .auth,
      "the token endpoint \(tokenSettings.mask.mask(NetworkErrorMapper.endpoint(tokenSettings.tokenURL))) refused to \(step) for \(settings.whereText) (HTTP \(status))",
      hint: code == "invalid_client" || code == "unauthorized_client"
        ? "check client_id and client_secret in \(settings.file)" : "run apx auth login \(settings.apiName) again",
      cause: said.isEmpty ? nil : String(tokenSettings.mask.mask(said).prefix(500)))
  }

  private func required(_ url: String?, _ key: String, _ discovered: String, _ settings: OAuth2LoginSettings) throws
    -> String
  {
    guard let url else {
      throw APXError(
        .auth,
        "\(settings.whereText) has no \(key)"
          + (settings.issuer != nil ? ", and its issuer's OpenID configuration names no \(discovered)" : ""),
        hint: "add \"\(key)\" to its auth in \(settings.file)")
    }
    return url
  }

  /// The error a call meets when only a new login can help: exit 8, never a browser.
  static func loginAgain(_ settings: OAuth2LoginSettings, _ why: String) -> APXError {
    APXError(
      .auth, "\(settings.whereText) needs a new login: \(why)",
      hint: "log in again: apx auth login \(settings.apiName)"
        + (settings.environmentName == "default" ? "" : " --env \(settings.environmentName)"))
  }
}
