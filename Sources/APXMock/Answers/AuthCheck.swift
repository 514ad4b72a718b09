import APXCore

/// Auth in form, not value: an endpoint that needs a credential gets one of the declared kind
/// (any bearer token, any API key under the declared name, any Basic pair), or a 401.
enum AuthCheck {
  /// What is missing, or nil when the request carries a credential of the right kind.
  static func missing(_ auth: AuthConfig?, in request: MockRequest) -> String? {
    guard let auth else { return nil }
    let authorization = request.header("authorization") ?? ""
    switch auth {
    case .none: return nil
    case .subprotocol(let prefix, _):
      return request.offeredSubprotocols.contains { $0.hasPrefix(prefix) && $0.count > prefix.count }
        ? nil : "the subprotocol \(prefix)<token> (Sec-WebSocket-Protocol)"
    case .bearer, .oauth2ClientCredentials, .oauth2Login, .tokenCommand:
      return has(authorization, scheme: "bearer") ? nil : "an Authorization: Bearer token"
    case .basic:
      return has(authorization, scheme: "basic") ? nil : "an Authorization: Basic credential"
    case .apiKey(let location, let name, _):
      switch location {
      case .header: return request.header(name.lowercased())?.isEmpty == false ? nil : "the API key header \(name)"
      case .query:
        return request.queryValues(name).first?.isEmpty == false ? nil : "the API key query parameter \(name)"
      case .path: return nil  // the path itself carries it: a request without it matches no route
      }
    }
  }

  private static func has(_ authorization: String, scheme: String) -> Bool {
    let parts = authorization.split(separator: " ", maxSplits: 1)
    return parts.count == 2 && parts[0].lowercased() == scheme && !parts[1].trimmingWhitespace.isEmpty
  }
}
