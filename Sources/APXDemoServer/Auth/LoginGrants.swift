import Crypto
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The demo's pending user logins: authorization codes bound to their PKCE challenge and
/// redirect URI, and device codes. Codes are single use and expire, as a real server's are.
final class LoginGrants: Sendable {
  /// The demo's public client (a native app: no secret, PKCE required).
  static let clientID = "demo-app"
  /// Scopes a login may ask for.
  static let knownScopes: Set<Substring> = ["books:read", "books:write", "openid", "offline_access"]
  /// Seconds an authorization code or a device code is good for.
  static let codeLifetime = 60.0
  static let deviceLifetime = 300.0

  struct PendingCode: Sendable {
    var challenge: String
    var redirectURI: String
    var scope: String
    var expires: ContinuousClock.Instant
  }

  struct PendingDevice: Sendable {
    var userCode: String
    var scope: String
    var expires: ContinuousClock.Instant
    /// Polls answered so far: the demo's user approves after the first, so a client sees
    /// `authorization_pending` once, as it would while a person types the code.
    var polls: Int
  }

  private struct State {
    var codes: [String: PendingCode] = [:]
    var devices: [String: PendingDevice] = [:]
  }
  private let state = Mutex(State())
  private let clock = ContinuousClock()

  /// A new authorization code for an approved request.
  func issueCode(challenge: String, redirectURI: String, scope: String) -> String {
    let code = Self.randomText()
    let expires = clock.now.advanced(by: .seconds(Self.codeLifetime))
    state.withLock {
      $0.codes[code] = PendingCode(challenge: challenge, redirectURI: redirectURI, scope: scope, expires: expires)
    }
    return code
  }

  /// What an exchange of `code` is refused for (RFC 6749 §4.1.3, RFC 7636 §4.6), or the scope it
  /// grants. The code is spent either way.
  func redeem(code: String, redirectURI: String?, verifier: String?) -> Result<String, DemoLoginRefusal> {
    guard let pending = state.withLock({ $0.codes.removeValue(forKey: code) }), clock.now < pending.expires else {
      return .failure(.init("invalid_grant", "the authorization code is unknown, expired or already used"))
    }
    guard redirectURI == pending.redirectURI else {
      return .failure(.init("invalid_grant", "redirect_uri differs from the authorization request's"))
    }
    guard let verifier, (43...128).contains(verifier.count) else {
      return .failure(.init("invalid_request", "code_verifier is missing or not 43 to 128 characters (RFC 7636)"))
    }
    guard Self.challenge(of: verifier) == pending.challenge else {
      return .failure(.init("invalid_grant", "code_verifier does not match the code_challenge"))
    }
    return .success(pending.scope)
  }

  /// A new device authorization: (device code, user code).
  func issueDevice(scope: String) -> (String, String) {
    let device = Self.randomText()
    let user = String(Self.randomText().uppercased().filter { $0.isLetter }.prefix(8))
    let expires = clock.now.advanced(by: .seconds(Self.deviceLifetime))
    state.withLock { $0.devices[device] = PendingDevice(userCode: user, scope: scope, expires: expires, polls: 0) }
    return (device, user)
  }

  /// One poll of the device flow (RFC 8628 §3.5): pending once, then the granted scope.
  func poll(device: String) -> Result<String, DemoLoginRefusal> {
    state.withLock { state in
      guard var pending = state.devices[device] else {
        return .failure(.init("invalid_grant", "the device code is unknown or already used"))
      }
      guard clock.now < pending.expires else {
        state.devices[device] = nil
        return .failure(.init("expired_token", "the device code has expired"))
      }
      pending.polls += 1
      if pending.polls == 1 {
        state.devices[device] = pending
        return .failure(.init("authorization_pending", "the user has not entered the code yet"))
      }
      state.devices[device] = nil
      return .success(pending.scope)
    }
  }

  /// `BASE64URL(SHA256(verifier))`.
  static func challenge(of verifier: String) -> String {
    let digest = Data(SHA256.hash(data: Array(verifier.utf8))).base64EncodedString()
    return digest.replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
  }

  private static func randomText() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<4).map { _ in
      let hex = String(generator.next() as UInt64, radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }.joined()
  }
}

/// An OAuth2 error code and its description.
struct DemoLoginRefusal: Error, Sendable {
  var code: String
  var description: String
  init(_ code: String, _ description: String) {
    self.code = code
    self.description = description
  }
}
