import APXCore

/// The OAuth2 token endpoint of a mocked API whose auth is `oauth2_client_credentials`: a
/// form-encoded POST at the path of its `token_url` answers a new token for the grants
/// `client_credentials`, `password` (any user name and password) and `refresh_token` (a refresh
/// token this mock issued). The client's credentials must come in the declared form
/// (`client_auth`: form fields, or `Authorization: Basic`), any value; otherwise 401
/// `invalid_client`.
public enum TokenEndpoint {
  /// The path the mock serves a token URL at: the path of an absolute URL (`/oauth/token` for
  /// `https://auth.example.com/oauth/token`), a relative one as a path; nil for a template,
  /// whose path is not known before a call resolves it.
  public static func path(of tokenURL: String) -> String? {
    if tokenURL.contains("${") { return nil }
    guard let scheme = tokenURL.firstRange(of: "://") else {
      return "/" + tokenURL.drop { $0 == "/" }
    }
    let rest = tokenURL[scheme.upperBound...]
    guard let slash = rest.firstIndex(of: "/") else { return "/" }
    let path = rest[slash...].prefix { $0 != "?" && $0 != "#" }
    return String(path)
  }

  /// The OAuth2 settings of an auth, whether it is carried in a header or a subprotocol.
  static func config(_ auth: AuthConfig?) -> OAuth2Config? {
    switch auth {
    case .oauth2ClientCredentials(let config)?: config
    case .subprotocol(_, let token)?: self.config(token)
    default: nil
    }
  }

  /// The answer to a token request, with tokens good for `lifetime` seconds.
  static func answer(_ request: MockRequest, config: OAuth2Config, tokens: MockTokens, lifetime: Int) -> MockAnswer {
    let form = Dictionary(
      MockRequest.queryPairs(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) }
    ) {
      first, _ in first
    }
    let hasClient: Bool
    switch config.clientAuth {
    case .body: hasClient = form["client_id"]?.isEmpty == false && form["client_secret"]?.isEmpty == false
    case .basic: hasClient = AuthCheck.missing(.basic(username: "", password: ""), in: request) == nil
    }
    guard hasClient else {
      var answer = error(
        401, "invalid_client",
        config.clientAuth == .body
          ? "send client_id and client_secret as form fields" : "send the client id and secret in Authorization: Basic")
      answer.headers.append(("www-authenticate", "Basic realm=\"apx mock\""))
      return answer
    }
    switch form["grant_type"] {
    case "client_credentials"?: break
    case "password"?:
      guard form["username"]?.isEmpty == false, form["password"] != nil else {
        return error(400, "invalid_request", "the password grant needs username and password")
      }
    case "refresh_token"?:
      guard let refresh = form["refresh_token"], tokens.knows(refreshToken: refresh) else {
        return error(400, "invalid_grant", "the refresh token is not one this mock issued")
      }
    case let other?:
      return error(
        400, "unsupported_grant_type", "apx mock answers client_credentials, password and refresh_token, not \(other)")
    case nil:
      return error(400, "invalid_request", "the form has no grant_type")
    }
    let issued = tokens.issue(lifetime: lifetime)
    var members = [
      JSONMember("access_token", .string(issued.access)), JSONMember("token_type", .string("Bearer")),
      JSONMember("expires_in", .int(lifetime)), JSONMember("refresh_token", .string(issued.refresh)),
    ]
    if let scope = form["scope"] { members.append(JSONMember("scope", .string(scope))) }
    var answer = MockAnswer.json(200, .object(members))
    answer.headers.append(("cache-control", "no-store"))
    return answer
  }

  private static func error(_ status: Int, _ code: String, _ description: String) -> MockAnswer {
    .json(status, .object([JSONMember("error", .string(code)), JSONMember("error_description", .string(description))]))
  }

  /// The bearer token a request carries: in `Authorization`, or after an auth subprotocol's prefix.
  static func bearer(_ request: MockRequest, subprotocolPrefix: String?) -> String? {
    if let prefix = subprotocolPrefix,
      let offered = request.offeredSubprotocols.first(where: { $0.hasPrefix(prefix) && $0.count > prefix.count })
    {
      return String(offered.dropFirst(prefix.count))
    }
    let parts = (request.header("authorization") ?? "").split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return parts[1].trimmingWhitespace
  }
}
