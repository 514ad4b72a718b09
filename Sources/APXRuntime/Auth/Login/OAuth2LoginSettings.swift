import APXCore

/// One API's user login with its `${env:...}` templates resolved; the endpoints it does not
/// name come from its issuer's discovery document when the login runs.
struct OAuth2LoginSettings: Sendable {
  var config: OAuth2LoginConfig
  var issuer: String?
  var tokenURL: String?
  var authorizeURL: String?
  var deviceAuthorizationURL: String?
  var revocationURL: String?
  var clientID: String
  /// Empty for a public client.
  var clientSecret: String
  var scopes: [String]
  var audience: String?
  var extraParams: [HeaderField]
  /// Masks the client secret, and each code, verifier and token the login meets.
  var mask: SecretMask
  var apiName: String
  var environmentName: String
  var file: String
  var environment: [String: String]

  /// What identifies these settings in the token store (the secret as a digest only).
  var origin: String {
    TokenOrigin.make(
      "oauth2_login",
      readable: [
        config.grant.typeName, issuer ?? "", tokenURL ?? "", authorizeURL ?? deviceAuthorizationURL ?? "", clientID,
        scopes.joined(separator: " "), audience ?? "",
      ] + extraParams.map(\.name),
      secrets: [clientSecret] + extraParams.map(\.value))
  }

  static func resolve(
    _ config: OAuth2LoginConfig, api: APIDefinition, environmentName: String, baseURL: String,
    environment: [String: String]
  ) throws(APXError) -> OAuth2LoginSettings {
    var mask = SecretMask()
    func text(_ template: String?) throws(APXError) -> String? {
      guard let template else { return nil }
      return OAuth2TokenClient.resolve(
        try TemplateResolver.resolveText(template, environment: environment, mask: &mask), against: baseURL)
    }
    let clientID = try TemplateResolver.resolveText(config.clientID, environment: environment, mask: &mask)
    let secret = try config.clientSecret.map { template throws(APXError) in
      try TemplateResolver.resolveText(template, environment: environment, mask: &mask, secret: true)
    }
    if let secret { mask.add(secret) }
    if clientID.isEmpty || secret?.isEmpty == true {
      throw APXError(
        .auth, "the OAuth2 \(clientID.isEmpty ? "client_id" : "client_secret") of the API \"\(api.name)\" is empty",
        hint: AuthSettingHints.check(
          fields: [("client_id", config.clientID), ("client_secret", config.clientSecret ?? "")],
          environment: environment, file: api.sourceFile))
    }
    var extra: [HeaderField] = []
    for field in config.extraParams {
      extra.append(
        HeaderField(field.name, try TemplateResolver.resolveText(field.value, environment: environment, mask: &mask)))
    }
    var authorizeURL: String?
    var deviceURL: String?
    switch config.grant {
    case .authorizationCode(let url, _, _): authorizeURL = try text(url)
    case .deviceCode(let url): deviceURL = try text(url)
    }
    let issuer = try config.issuer.map { template throws(APXError) in
      try TemplateResolver.resolveText(template, environment: environment, mask: &mask)
    }
    return OAuth2LoginSettings(
      config: config, issuer: issuer, tokenURL: try text(config.tokenURL), authorizeURL: authorizeURL,
      deviceAuthorizationURL: deviceURL, revocationURL: try text(config.revocationURL), clientID: clientID,
      clientSecret: secret ?? "", scopes: config.scopes,
      audience: try config.audience.map { template throws(APXError) in
        try TemplateResolver.resolveText(template, environment: environment, mask: &mask)
      }, extraParams: extra, mask: mask, apiName: api.name, environmentName: environmentName, file: api.sourceFile,
      environment: environment)
  }

  /// The token endpoint's settings for `OAuth2TokenClient`.
  func tokenSettings(tokenURL: String) -> OAuth2TokenClient.Settings {
    var settings = OAuth2TokenClient.Settings(
      tokenURL: tokenURL, clientID: clientID, clientSecret: clientSecret, scopes: scopes, audience: audience,
      extraFields: [], mask: mask,
      config: OAuth2Config(
        tokenURL: config.tokenURL ?? tokenURL, clientID: config.clientID, clientSecret: config.clientSecret ?? "",
        clientAuth: config.clientAuth),
      apiName: apiName, environmentName: environmentName, file: file, environment: environment)
    settings.storedType = config.grant.typeName
    settings.storedOrigin = origin
    if !clientSecret.isEmpty, config.clientAuth == .basic {
      settings.mask.add(OAuth2TokenClient.basicCredentials(settings))
    }
    return settings
  }

  /// Where the API and environment are, for messages.
  var whereText: String { "the API \"\(apiName)\" (environment \(environmentName))" }
}
