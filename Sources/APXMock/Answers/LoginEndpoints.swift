import APXCore
import Crypto
import Synchronization

/// The endpoints of a mocked API whose auth is a user's login (`oauth2_authorization_code`,
/// `oauth2_device_code`), at the paths of its `authorize_url`, `token_url`,
/// `device_authorization_url` and `revocation_url`. The mock's user approves every request at
/// once, and what a real server checks it checks in form: a client id, a redirect URI, an S256
/// challenge that the code's verifier must match, single-use codes, and a device code that is
/// pending for one poll.
struct LoginEndpoints: Sendable {
  let config: OAuth2LoginConfig
  let authorize: String?
  let token: String?
  let device: String?
  let revoke: String?

  /// The login endpoints of the API's and its endpoints' auths; nil paths are not served.
  static func of(_ api: APIDefinition) -> [LoginEndpoints] {
    var out: [LoginEndpoints] = []
    for auth in [api.auth] + api.endpoints.map(\.auth) {
      guard case .oauth2Login(let config)? = auth.map(Self.unwrapped) else { continue }
      var authorize: String?
      var device: String?
      switch config.grant {
      case .authorizationCode(let url, _, _): authorize = url.flatMap(TokenEndpoint.path)
      case .deviceCode(let url): device = url.flatMap(TokenEndpoint.path)
      }
      let found = LoginEndpoints(
        config: config, authorize: authorize, token: config.tokenURL.flatMap(TokenEndpoint.path), device: device,
        revoke: config.revocationURL.flatMap(TokenEndpoint.path))
      if !out.contains(where: { $0.token == found.token && $0.authorize == found.authorize }) { out.append(found) }
    }
    return out
  }

  private static func unwrapped(_ auth: AuthConfig) -> AuthConfig {
    if case .subprotocol(_, let token) = auth { return token }
    return auth
  }

  /// What the mock cannot serve of this login (endpoints that only its issuer's discovery names).
  var unserved: [String] {
    var missing: [String] = []
    if token == nil { missing.append("token_url") }
    switch config.grant {
    case .authorizationCode: if authorize == nil { missing.append("authorize_url") }
    case .deviceCode: if device == nil { missing.append("device_authorization_url") }
    }
    return missing
  }

  /// The answer when `request` is for one of these endpoints; nil otherwise.
  /// - Parameter sharedTokenPath: another auth's token endpoint answers at the same path (an
  ///   API's client credentials beside its users' login, as Auth0 has): grants of neither
  ///   login flow are left to it.
  func answer(
    _ request: MockRequest, at path: String, logins: MockLogins, tokens: MockTokens, lifetime: Int,
    sharedTokenPath: Bool = false
  ) -> MockAnswer? {
    if request.method == "GET", path == authorize { return Self.authorize(request, logins) }
    guard request.method == "POST" else { return nil }
    let form = Dictionary(
      MockRequest.queryPairs(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) }
    ) { first, _ in first }
    if path == device {
      guard form["client_id"]?.isEmpty == false else {
        return Self.error(401, "invalid_client", "the device authorization request names no client_id")
      }
      let (deviceCode, userCode) = logins.issueDevice()
      return .json(
        200,
        .object([
          JSONMember("device_code", .string(deviceCode)), JSONMember("user_code", .string(userCode)),
          JSONMember("verification_uri", .string(path)), JSONMember("expires_in", .int(300)),
          JSONMember("interval", .int(1)),
        ]))
    }
    if path == revoke {
      return form["token"] == nil
        ? Self.error(400, "invalid_request", "the form needs a token field") : .json(200, .object([]))
    }
    guard path == token else { return nil }
    switch form["grant_type"] {
    case "authorization_code":
      guard let code = form["code"], let verifier = form["code_verifier"] else {
        return Self.error(400, "invalid_request", "the exchange needs code and code_verifier (PKCE)")
      }
      if let refusal = logins.redeem(code: code, redirectURI: form["redirect_uri"], verifier: verifier) {
        return Self.error(400, "invalid_grant", refusal)
      }
    case "urn:ietf:params:oauth:grant-type:device_code":
      guard let deviceCode = form["device_code"] else {
        return Self.error(400, "invalid_request", "the poll needs a device_code")
      }
      if let refusal = logins.poll(device: deviceCode) { return Self.error(400, refusal.code, refusal.description) }
    case "refresh_token":
      guard let refresh = form["refresh_token"], tokens.knows(refreshToken: refresh) else {
        return Self.error(400, "invalid_grant", "the refresh token is not one this mock issued")
      }
    case _ where sharedTokenPath:
      return nil
    case let other:
      return Self.error(
        400, "unsupported_grant_type",
        "this login's token endpoint answers authorization_code, the device code grant and refresh_token, not \(other ?? "none")"
      )
    }
    let issued = tokens.issue(lifetime: lifetime)
    var answer = MockAnswer.json(
      200,
      .object([
        JSONMember("access_token", .string(issued.access)), JSONMember("token_type", .string("Bearer")),
        JSONMember("expires_in", .int(lifetime)), JSONMember("refresh_token", .string(issued.refresh)),
      ]))
    answer.headers.append(("cache-control", "no-store"))
    return answer
  }

  private static func authorize(_ request: MockRequest, _ logins: MockLogins) -> MockAnswer {
    func value(_ name: String) -> String? { request.queryValues(name).first.flatMap { $0.isEmpty ? nil : $0 } }
    guard value("client_id") != nil, let redirect = value("redirect_uri") else {
      return .problem(400, title: "Bad Request", detail: "the authorization request needs client_id and redirect_uri")
    }
    var query: [(String, String)] = []
    if let state = value("state") { query.append(("state", state)) }
    if value("response_type") != "code" {
      query.insert(("error", "unsupported_response_type"), at: 0)
    } else if let challenge = value("code_challenge"), value("code_challenge_method") == "S256" {
      query.insert(("code", logins.issueCode(challenge: challenge, redirectURI: redirect)), at: 0)
    } else {
      query.insert(("error", "invalid_request"), at: 0)
      query.insert(("error_description", "send code_challenge with code_challenge_method=S256"), at: 1)
    }
    let encoded = query.map {
      PercentEncoding.encode($0.0, allowed: .queryComponent) + "="
        + PercentEncoding.encode($0.1, allowed: .queryComponent)
    }.joined(separator: "&")
    return MockAnswer(
      status: 302, headers: [("location", redirect + (redirect.contains("?") ? "&" : "?") + encoded)], body: .bytes([]))
  }

  static func error(_ status: Int, _ code: String, _ description: String) -> MockAnswer {
    .json(status, .object([JSONMember("error", .string(code)), JSONMember("error_description", .string(description))]))
  }
}

/// The codes of the logins one mock run answered: single use, each bound to its challenge.
final class MockLogins: Sendable {
  private struct State {
    var codes: [String: (challenge: String, redirectURI: String)] = [:]
    var devicePolls: [String: Int] = [:]
    var issued = 0
  }
  private let state = Mutex(State())

  func issueCode(challenge: String, redirectURI: String) -> String {
    state.withLock { state in
      state.issued += 1
      let code = "mock-code-\(state.issued)-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      state.codes[code] = (challenge, redirectURI)
      return code
    }
  }

  /// Why the exchange is refused, or nil; the code is spent either way.
  func redeem(code: String, redirectURI: String?, verifier: String) -> String? {
    guard let pending = state.withLock({ $0.codes.removeValue(forKey: code) }) else {
      return "the code is not one this mock issued, or it was used already"
    }
    guard redirectURI == pending.redirectURI else { return "redirect_uri differs from the authorization request's" }
    let digest = Base64.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
      .replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    return digest == pending.challenge ? nil : "code_verifier does not match the code_challenge"
  }

  func issueDevice() -> (String, String) {
    state.withLock { state in
      state.issued += 1
      let device = "mock-device-\(state.issued)-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
      state.devicePolls[device] = 0
      return (device, "MOCK-\(state.issued)")
    }
  }

  /// The refusal of this poll (pending once), or nil when the user has approved.
  func poll(device: String) -> (code: String, description: String)? {
    state.withLock { state in
      guard let polls = state.devicePolls[device] else {
        return ("invalid_grant", "the device code is not one this mock issued, or it was used already")
      }
      if polls == 0 {
        state.devicePolls[device] = 1
        return ("authorization_pending", "the mock's user has not entered the code yet")
      }
      state.devicePolls[device] = nil
      return nil
    }
  }
}
