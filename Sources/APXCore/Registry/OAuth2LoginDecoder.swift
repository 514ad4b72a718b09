/// Decodes an `oauth2_authorization_code` or `oauth2_device_code` auth block.
enum OAuth2LoginDecoder {
  static let sharedKeys = [
    "type", "issuer", "token_url", "revocation_url", "client_id", "client_secret", "scopes", "audience",
    "extra_params", "client_auth",
  ]

  static func decode(
    _ type: String, _ value: JSONValue, _ f: [JSONMember], at p: [JSONPathComponent], _ r: inout DocumentReader
  ) -> OAuth2LoginConfig? {
    let own =
      type == "oauth2_device_code" ? ["device_authorization_url"] : ["authorize_url", "redirect_port", "redirect_path"]
    _ = r.object(value, at: p, allowed: sharedKeys + own)
    guard let clientID = r.requiredString(f, "client_id", at: p) else { return nil }
    let issuer = r.optionalString(f, "issuer", at: p)
    let tokenURL = r.optionalString(f, "token_url", at: p)
    let grant: OAuth2LoginGrant
    if type == "oauth2_device_code" {
      let url = r.optionalString(f, "device_authorization_url", at: p)
      if issuer == nil, url == nil || tokenURL == nil {
        r.fail(
          p, "an oauth2_device_code auth needs \"issuer\", or both \"device_authorization_url\" and \"token_url\"",
          hint: "give the OpenID issuer (its discovery document names the endpoints), or the two endpoints")
      }
      grant = .deviceCode(deviceAuthorizationURL: url)
    } else {
      let url = r.optionalString(f, "authorize_url", at: p)
      if issuer == nil, url == nil || tokenURL == nil {
        r.fail(
          p, "an oauth2_authorization_code auth needs \"issuer\", or both \"authorize_url\" and \"token_url\"",
          hint: "give the OpenID issuer (its discovery document names the endpoints), or the two endpoints")
      }
      let path = r.optionalString(f, "redirect_path", at: p) ?? "/callback"
      if !path.hasPrefix("/") || path.contains("?") || path.contains("#") {
        r.fail(p + [.key("redirect_path")], "redirect_path must be a path such as \"/callback\", got \"\(path)\"")
      }
      grant = .authorizationCode(
        authorizeURL: url, redirectPort: r.optionalInt(f, "redirect_port", at: p, range: 1...65_535),
        redirectPath: path)
    }
    // A public client has no secret to authenticate with: a client_auth there would do nothing.
    if f.contains(where: { $0.key == "client_auth" }), !f.contains(where: { $0.key == "client_secret" }) {
      r.fail(
        p + [.key("client_auth")], "client_auth applies to a client with a client_secret, and this one has none",
        hint: "drop client_auth (a public client sends only its client_id), or add the client_secret")
    }
    return OAuth2LoginConfig(
      grant: grant, issuer: issuer, tokenURL: tokenURL, revocationURL: r.optionalString(f, "revocation_url", at: p),
      clientID: clientID, clientSecret: r.optionalString(f, "client_secret", at: p),
      scopes: r.optionalStrings(f, "scopes", at: p) ?? [], audience: r.optionalString(f, "audience", at: p),
      extraParams: r.optionalStringMap(f, "extra_params", at: p) ?? [],
      clientAuth: AuthConfigDecoder.clientAuth(f, at: p, &r))
  }
}
