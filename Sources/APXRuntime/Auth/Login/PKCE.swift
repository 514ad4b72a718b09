import Crypto

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One authorization request's secrets (RFC 7636): the code verifier, its S256 challenge, and
/// the `state` the redirect must bring back. Fresh random values for every login.
struct PKCE: Sendable {
  /// 43 characters of base64url from 32 random bytes: sent only to the token endpoint.
  let verifier: String
  /// `BASE64URL(SHA256(verifier))`, sent in the authorization URL.
  let challenge: String
  /// Ties the redirect to this request (RFC 6749 §10.12).
  let state: String

  init() {
    var generator = SystemRandomNumberGenerator()
    verifier = Self.randomText(using: &generator)
    challenge = Self.base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    state = Self.randomText(using: &generator)
  }

  /// A verifier for tests of the challenge's computation (RFC 7636 Appendix B).
  init(verifier: String, state: String) {
    self.verifier = verifier
    self.challenge = Self.base64URL(Array(SHA256.hash(data: Array(verifier.utf8))))
    self.state = state
  }

  static func randomText(using generator: inout SystemRandomNumberGenerator) -> String {
    base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  /// Base64 with the URL alphabet and no padding (RFC 7636 Appendix A).
  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
  }
}
