public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Applies an API's (or endpoint's) auth to a planned HTTP request, and
/// registers every secret it uses with the mask. The **resolve** step of
/// the pipeline for credentials.
public struct AuthApplier: Sendable {
  /// The process environment, for `${env:NAME}` templates in auth fields.
  public let environment: [String: String]
  /// Fetches OAuth2 and `token_command` tokens.
  public let tokens: (any TokenSource)?
  /// A bearer token given on the command line (`--token-stdin`), overriding the registry.
  public let tokenOverride: String?

  /// Makes an applier for one run.
  public init(environment: [String: String], tokens: (any TokenSource)?, tokenOverride: String? = nil) {
    self.environment = environment
    self.tokens = tokens
    self.tokenOverride = tokenOverride
  }

  /// The auth in force for an endpoint: its own, else the API's.
  public static func effective(api: APIDefinition, endpoint: Endpoint) -> AuthConfig {
    endpoint.auth ?? api.auth ?? .none
  }

  /// Whether this auth can be refreshed and the call replayed after a 401 / UNAUTHENTICATED.
  public static func isRefreshable(_ auth: AuthConfig) -> Bool {
    switch auth {
    case .oauth2ClientCredentials, .oauth2Login, .tokenCommand: true
    case .subprotocol(_, let token): isRefreshable(token)
    default: false
    }
  }

  /// The token of an `Authorization: Bearer <token>` header of `plan`, if it has one.
  public static func bearerToken(in plan: HTTPRequestPlan) -> String? {
    guard let value = plan.header("Authorization") else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }

  /// The `authorization` value (e.g. `Bearer <token>`) for transports that
  /// carry credentials as metadata rather than an HTTP request (gRPC), with
  /// its secrets registered in `mask`; nil when the auth adds no such header
  /// (none, or an API key in a query or path).
  ///
  /// - Parameter rejectedToken: the token the server just refused (UNAUTHENTICATED), to refresh once.
  public func authorization(
    _ auth: AuthConfig, mask: inout SecretMask, api: APIDefinition, environmentName: String, baseURL: String,
    rejectedToken: String? = nil
  ) async throws -> [HeaderField] {
    var plan = HTTPRequestPlan(method: "POST", url: baseURL, headers: [], body: .none)
    if case .apiKey(.query, _, _) = auth { return [] }
    if case .apiKey(.path, _, _) = auth { return [] }
    try await apply(
      auth, to: &plan, mask: &mask, api: api, environmentName: environmentName, baseURL: baseURL,
      rejectedToken: rejectedToken)
    return plan.headers.map { HeaderField($0.name.lowercased(), $0.value) }
  }

  /// Adds credentials to `plan`. Fails with `.auth` when a needed secret is missing.
  ///
  /// - Parameters:
  ///   - forceRefresh: fetch a new token even if the stored one looks valid.
  ///   - rejectedToken: the token the server just refused: get a new one unless another call already did.
  public func apply(
    _ auth: AuthConfig, to plan: inout HTTPRequestPlan, mask: inout SecretMask, api: APIDefinition,
    environmentName: String, baseURL: String, forceRefresh: Bool = false, rejectedToken: String? = nil
  ) async throws {
    if let tokenOverride {
      mask.add(tokenOverride)
      if let prefix = auth.subprotocolPrefix {
        plan.setHeader(WebSocketSubprotocolCredential.header, prefix + tokenOverride)
      } else {
        plan.setHeader("Authorization", "Bearer \(tokenOverride)")
      }
      return
    }
    switch auth {
    case .none:
      return
    case .bearer(let template):
      let token = try secret(template, what: "bearer token", api: api, mask: &mask)
      plan.setHeader("Authorization", "Bearer \(token)")
    case .basic(let userTemplate, let passwordTemplate):
      let user = try TemplateResolver.resolveText(userTemplate, environment: environment, mask: &mask)
      let password = try secret(passwordTemplate, what: "password", api: api, mask: &mask, allowEmpty: true)
      let encoded = Data("\(user):\(password)".utf8).base64EncodedString()
      mask.add(encoded)
      plan.setHeader("Authorization", "Basic \(encoded)")
    case .apiKey(let location, let name, let template):
      let key = try secret(template, what: "API key", api: api, mask: &mask)
      switch location {
      case .header:
        mask.addHeader(name)
        if name.lowercased() == "cookie", let i = plan.headers.firstIndex(where: { $0.name.lowercased() == "cookie" }) {
          // A cookie API key (as `apx import` writes one) joins the cookie parameters: one Cookie header (RFC 6265 5.4).
          plan.headers[i].value = key + "; " + plan.headers[i].value
        } else {
          plan.setHeader(name, key)
        }
        plan.credentialHeaders.insert(name.lowercased())
      case .query:
        // Replaced, not appended: a next-page link may carry the key already.
        plan.url = QueryParameter.replacing(name, with: key, in: plan.url)
        // The server may write the key in its links in an encoding of its own: mask the parameter's value.
        mask.addQueryParameter(name)
      case .path:
        let placeholder = "{\(name)}"
        guard plan.url.contains(placeholder) else {
          throw APXError(
            .invalidDefinition,
            "the API key goes in the path segment {\(name)}, but this endpoint's path has no such segment",
            hint: "add {\(name)} to the endpoint's path in \(api.sourceFile)", file: api.sourceFile)
        }
        plan.url = plan.url.replacing(
          placeholder, with: PercentEncoding.encode(key, allowed: .pathSegment))
      }
    case .subprotocol(let prefix, let inner):
      // The token as a header would carry it, then moved into the subprotocol the server reads.
      var carrier = HTTPRequestPlan(method: plan.method, url: plan.url, headers: [], body: .none)
      try await apply(
        inner, to: &carrier, mask: &mask, api: api, environmentName: environmentName, baseURL: baseURL,
        forceRefresh: forceRefresh, rejectedToken: rejectedToken)
      guard let token = Self.bearerToken(in: carrier) else { return }
      try WebSocketSubprotocolCredential.checkToken(token)
      plan.setHeader(WebSocketSubprotocolCredential.header, prefix + token)
    case .oauth2ClientCredentials, .oauth2Login, .tokenCommand:
      guard let tokens else {
        throw APXError(
          .auth, "\(auth.typeName) auth is not available in this build", hint: "use a bearer token with --token-stdin")
      }
      let token: String
      if let rejectedToken {
        token = try await tokens.token(
          for: auth, api: api, environment: environmentName, baseURL: baseURL, rejected: rejectedToken)
      } else {
        token = try await tokens.token(
          for: auth, api: api, environment: environmentName, baseURL: baseURL, forceRefresh: forceRefresh)
      }
      mask.add(token)
      plan.setHeader("Authorization", "Bearer \(token)")
    }
  }

  /// Resolves a secret template; a missing or empty secret is an auth error naming the API.
  func secret(_ template: String, what: String, api: APIDefinition, mask: inout SecretMask, allowEmpty: Bool = false)
    throws
    -> String
  {
    let value = try TemplateResolver.resolveText(template, environment: environment, mask: &mask, secret: true)
    mask.add(value)
    if value.isEmpty && !allowEmpty {
      throw APXError(
        .auth, "the \(what) for the API \"\(api.name)\" is empty",
        hint: "set it in \(api.sourceFile) (\"auth\"), usually through an environment variable")
    }
    return value
  }
}

/// Where a subprotocol-carried token travels between the auth layer and the WebSocket transport:
/// in the handshake's own `Sec-WebSocket-Protocol` header, which the transport joins with the
/// endpoint's other subprotocols.
enum WebSocketSubprotocolCredential {
  static let header = "Sec-WebSocket-Protocol"

  /// Refuses a token that a subprotocol cannot carry: RFC 6455 subprotocols are HTTP tokens, so
  /// a token with `/`, `=` or a space (as base64 has) would make a handshake strict servers refuse.
  /// The error never shows the token.
  static func checkToken(_ token: String) throws(APXError) {
    let allowed = Set("!#$%&'*+-.^_`|~".utf8)
    let bad = token.utf8.first {
      !(($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || allowed.contains($0))
    }
    guard let bad else { return }
    let shown = (0x21..<0x7F).contains(bad) ? "'\(Character(Unicode.Scalar(bad)))'" : "a space or non-ASCII byte"
    throw APXError(
      .auth, "the token cannot travel in a WebSocket subprotocol: it holds \(shown)",
      hint: "a subprotocol holds only letters, digits and !#$%&'*+-.^_`|~ (RFC 6455); carry the token in a header "
        + "(\"in\": \"header\") if the server reads one, or ask its owner for tokens without such characters")
  }

  /// Takes the auth's subprotocol out of `plan`'s headers: the subprotocol and the token in it
  /// (after `prefix`), or nil when `auth` does not carry one.
  static func take(from plan: inout HTTPRequestPlan, auth: AuthConfig) -> (subprotocol: String, token: String)? {
    guard let prefix = auth.subprotocolPrefix, let value = plan.header(header) else { return nil }
    plan.headers.removeAll { $0.name.lowercased() == header.lowercased() }
    return (value, String(value.dropFirst(prefix.count)))
  }
}
