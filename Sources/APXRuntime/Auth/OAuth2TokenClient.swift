import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Requests OAuth2 tokens (RFC 6749 §4.4 client credentials, §6 refresh)
/// with a form POST to the token URL. Every error names the API and what to
/// check, and never contains the client secret or a token.
struct OAuth2TokenClient: Sendable {
  let session: HTTPSession
  let clock: any RetryClock
  /// Seconds a token request may take; nil waits as long as any request without `--timeout`.
  var timeout: Double?
  /// Told of the request and its answer's head, masked (`-v`).
  var observe: (@Sendable (CallEvent) -> Void)? = nil

  /// The OAuth2 settings of one API with `${env:...}` templates resolved.
  struct Settings: Sendable {
    var tokenURL: String
    var clientID: String
    var clientSecret: String
    var scopes: [String]
    var audience: String?
    var extraFields: [HeaderField]
    /// Masks the client secret (and later the tokens) in anything shown.
    var mask: SecretMask
    /// The registry fields, for hints naming the variables to check.
    var config: OAuth2Config
    var apiName: String
    var environmentName: String
    var file: String
    var environment: [String: String]
    /// The registry type a token from these settings is stored under.
    var storedType = "oauth2_client_credentials"
    /// The origin stored with its tokens, when not `origin` (a login's is its registry settings').
    var storedOrigin: String?

    /// What identifies these settings in the token store: a change of any of them (the
    /// secret and extra field values included, as a digest) fetches a new token.
    var origin: String {
      TokenOrigin.make(
        "oauth2",
        readable: [tokenURL, clientID, scopes.joined(separator: " "), audience ?? "", config.clientAuth.rawValue]
          + extraFields.map(\.name),
        secrets: [clientSecret] + extraFields.map(\.value))
    }
  }

  /// Resolves `config` for a call in `environmentName`; a relative token URL is joined to `baseURL`.
  static func settings(
    _ config: OAuth2Config, api: APIDefinition, environmentName: String, baseURL: String,
    environment: [String: String]
  ) throws(APXError) -> Settings {
    var mask = SecretMask()
    let url = try TemplateResolver.resolveText(config.tokenURL, environment: environment, mask: &mask)
    let clientID = try TemplateResolver.resolveText(config.clientID, environment: environment, mask: &mask)
    let secret = try TemplateResolver.resolveText(
      config.clientSecret, environment: environment, mask: &mask, secret: true)
    mask.add(secret)
    var extra: [HeaderField] = []
    for field in config.extraFields {
      let value = try TemplateResolver.resolveText(field.value, environment: environment, mask: &mask, secret: true)
      extra.append(HeaderField(field.name, value))
    }
    let audience = try config.audience.map { text throws(APXError) in
      try TemplateResolver.resolveText(text, environment: environment, mask: &mask)
    }
    if clientID.isEmpty || secret.isEmpty {
      throw APXError(
        .auth, "the OAuth2 \(clientID.isEmpty ? "client_id" : "client_secret") of the API \"\(api.name)\" is empty",
        hint: AuthSettingHints.check(
          fields: [("client_id", config.clientID), ("client_secret", config.clientSecret)], environment: environment,
          file: api.sourceFile))
    }
    var settings = Settings(
      tokenURL: resolve(url, against: baseURL), clientID: clientID, clientSecret: secret, scopes: config.scopes,
      audience: audience, extraFields: extra, mask: mask, config: config, apiName: api.name,
      environmentName: environmentName, file: api.sourceFile, environment: environment)
    if config.clientAuth == .basic { settings.mask.add(basicCredentials(settings)) }
    return settings
  }

  /// An absolute URL stays; `/oauth/token` or `oauth/token` is joined to the base URL.
  static func resolve(_ url: String, against baseURL: String) -> String {
    if url.contains("://") { return url }
    let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    return base + (url.hasPrefix("/") ? url : "/" + url)
  }

  /// A new token from the client credentials grant.
  func clientCredentials(_ settings: Settings) async throws -> StoredToken {
    var fields = [HeaderField("grant_type", "client_credentials")]
    if !settings.scopes.isEmpty { fields.append(HeaderField("scope", settings.scopes.joined(separator: " "))) }
    if let audience = settings.audience { fields.append(HeaderField("audience", audience)) }
    fields += settings.extraFields
    switch try await request(fields, settings) {
    case .granted(let token): return token
    case .refused(let status, let code, let description):
      throw refusal(status: status, code: code, description: description, settings)
    }
  }

  /// A new token from a refresh token, or nil when the server no longer
  /// accepts it (`invalid_grant`): the caller then uses client credentials.
  func refresh(_ refreshToken: String, _ settings: Settings) async throws -> StoredToken? {
    var settings = settings
    settings.mask.add(refreshToken)
    let fields = [HeaderField("grant_type", "refresh_token"), HeaderField("refresh_token", refreshToken)]
    switch try await request(fields, settings) {
    case .granted(var token):
      // RFC 6749 §6: a server may issue a new refresh token (rotation); else the old one stays.
      token.refreshToken = token.refreshToken ?? refreshToken
      return token
    case .refused(let status, let code, let description):
      // A refused refresh is normal (rotated, revoked, expired): start over. A bad client is not.
      if code == "invalid_client" { throw refusal(status: status, code: code, description: description, settings) }
      return nil
    }
  }

  enum Answer {
    case granted(StoredToken)
    case refused(status: Int, code: String?, description: String?)
  }

  /// Posts the form to the token endpoint and reads the answer as a token.
  func request(_ fields: [HeaderField], _ settings: Settings) async throws -> Answer {
    let (status, json, text, obtainedAt) = try await post(fields, to: settings.tokenURL, settings)
    guard (200..<300).contains(status) else {
      return .refused(
        status: status, code: json?["error"]?.stringValue, description: json?["error_description"]?.stringValue ?? text)
    }
    return .granted(try token(from: json, status: status, obtainedAt: obtainedAt, settings))
  }

  /// Posts the form to `url`, with the client's credentials as `client_auth` says (a public
  /// client, with no secret, sends only its `client_id`), and reads the answer (at most 1 MiB).
  func post(_ fields: [HeaderField], to url: String, _ settings: Settings) async throws
    -> (status: Int, json: JSONValue?, text: String, obtainedAt: Double)
  {
    var fields = fields
    var headers: [HeaderField] = []
    switch settings.config.clientAuth {
    case _ where settings.clientSecret.isEmpty:
      fields.append(HeaderField("client_id", settings.clientID))
    case .body:
      fields += [HeaderField("client_id", settings.clientID), HeaderField("client_secret", settings.clientSecret)]
    case .basic:
      headers.append(HeaderField("Authorization", "Basic " + Self.basicCredentials(settings)))
    }
    let form = fields.map {
      PercentEncoding.encode($0.name, allowed: .queryComponent) + "="
        + PercentEncoding.encode($0.value, allowed: .queryComponent)
    }.joined(separator: "&")
    // The transport sends only the headers of the plan: the form's type must be one of them
    // (RFC 6749 §4.4.2; token endpoints answer 400 invalid_request without it).
    let formType = "application/x-www-form-urlencoded"
    let plan = HTTPRequestPlan(
      method: "POST", url: url,
      headers: [HeaderField("Content-Type", formType), HeaderField("Accept", "application/json")] + headers,
      body: .bytes(Array(form.utf8), contentType: formType))
    let obtainedAt = clock.now()
    let status: Int
    let body: ByteBuffer
    do {
      let deadline: NIODeadline =
        timeout.map { .now() + .milliseconds(DurationConversion.milliseconds($0)) } ?? .distantFuture
      let mask = settings.mask
      observe?(
        .requestSent(method: plan.method, url: mask.mask(plan.url), headers: mask.mask(plan.headersSent), attempt: 1))
      let response = try await session.send(plan, deadline: deadline)
      status = Int(response.status.code)
      observe?(
        .responseHead(
          status: status, version: "\(response.version)",
          headers: mask.mask(response.headers.map { HeaderField($0.name, $0.value) })))
      body = try await response.body.collect(upTo: 1 << 20)
    } catch {
      var mapped = NetworkErrorMapper.map(error, url: url, timeout: timeout)
      mapped.message =
        "cannot get a token for the API \"\(settings.apiName)\" from \(settings.mask.mask(NetworkErrorMapper.endpoint(url))): "
        + settings.mask.mask(mapped.message)
      mapped.cause = mapped.cause.map(settings.mask.mask)
      throw mapped
    }
    return (status, try? JSONParser.parse(Array(body.readableBytesView)), String(buffer: body), obtainedAt)
  }

  /// The token a 2xx answer holds; an answer without an access token is an error naming the URL.
  func token(from json: JSONValue?, status: Int, obtainedAt: Double, _ settings: Settings) throws -> StoredToken {
    guard let accessToken = json?["access_token"]?.stringValue, !accessToken.isEmpty else {
      throw APXError(
        .auth,
        "the token endpoint \(settings.mask.mask(NetworkErrorMapper.endpoint(settings.tokenURL))) of the API \"\(settings.apiName)\" answered \(status) without an access_token",
        hint: "check token_url in \(settings.file): it should point at the OAuth2 token endpoint")
    }
    let expiresIn = json?["expires_in"].flatMap { $0.doubleValue ?? $0.stringValue.flatMap(Double.init) }
    var token = StoredToken(
      api: settings.apiName, environment: settings.environmentName, type: settings.storedType,
      accessToken: accessToken, tokenType: json?["token_type"]?.stringValue ?? "Bearer",
      refreshToken: json?["refresh_token"]?.stringValue, obtainedAt: obtainedAt,
      expiresAt: expiresIn.flatMap { $0.isFinite && $0 > 0 ? obtainedAt + $0 : nil },
      scope: json?["scope"]?.stringValue, subject: settings.clientID, origin: settings.storedOrigin ?? settings.origin)
    token.idToken = json?["id_token"]?.stringValue
    return token
  }

  /// RFC 6749 §2.3.1: the id and the secret are each form-encoded (Appendix B), joined by a
  /// colon and base64-encoded. `Settings.make` registers the result with the mask.
  static func basicCredentials(_ settings: Settings) -> String {
    func formEncoded(_ text: String) -> String {
      PercentEncoding.encode(text, allowed: .queryComponent).replacing("%20", with: "+")
    }
    return Data((formEncoded(settings.clientID) + ":" + formEncoded(settings.clientSecret)).utf8).base64EncodedString()
  }

  /// The error for a refused token request: which API, what the server said, what to check.
  private func refusal(status: Int, code: String?, description: String?, _ settings: Settings) -> APXError {
    let said = [code, description].compactMap { $0 }.joined(separator: ": ")
    let cause = said.isEmpty ? nil : String(settings.mask.mask(said).prefix(500))
    let where_ = "the API \"\(settings.apiName)\" (environment \(settings.environmentName))"
    let endpoint = settings.mask.mask(NetworkErrorMapper.endpoint(settings.tokenURL))
    let credentials = AuthSettingHints.check(
      fields: [("client_id", settings.config.clientID), ("client_secret", settings.config.clientSecret)],
      environment: settings.environment, file: settings.file)
    switch code {
    case "invalid_client", "unauthorized_client":
      return APXError(
        .auth, "the token endpoint \(endpoint) rejected the client credentials of \(where_)", hint: credentials,
        cause: cause)
    case "invalid_scope":
      return APXError(
        .auth, "the token endpoint \(endpoint) refused the scopes requested for \(where_)",
        hint: "check \"scopes\" in \(settings.file)", cause: cause)
    default:
      if status == 401 || status == 403 {
        return APXError(
          .auth, "the token endpoint \(endpoint) rejected the client credentials of \(where_) (HTTP \(status))",
          hint: credentials,
          cause: cause)
      }
      return APXError(
        .auth,
        "the token endpoint \(endpoint) refused a token for \(where_) (HTTP \(status))",
        hint: "check token_url, client_id, client_secret and the extra fields in \(settings.file)", cause: cause)
    }
  }
}
