public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an OpenID Connect ID token says of the user, read from its payload for `apx auth
/// status`. Its signature is not checked: apx is not the relying party, the API is, and the
/// summary says so.
public enum IDTokenClaims {
  /// `{subject, issuer, audience, expires_at, expired, signature}`, or the reason it cannot
  /// be read. Never the token itself.
  public static func summary(_ idToken: String, now: Double) -> JSONValue {
    guard let claims = payload(idToken) else {
      return .object([JSONMember("error", .string("the ID token is not a JWT apx can read"))])
    }
    var members = [
      JSONMember("subject", claims["sub"] ?? .null), JSONMember("issuer", claims["iss"] ?? .null),
      JSONMember("audience", claims["aud"] ?? .null),
    ]
    if let exp = claims["exp"]?.doubleValue {
      members.append(JSONMember("expires_in", .int(Int(max(min(exp - now, 1e15), -1e15).rounded(.down)))))
    }
    members.append(JSONMember("signature", .string("not verified: apx is not the relying party")))
    return .object(members)
  }

  /// The JSON payload of a JWS compact serialization (`header.payload.signature`), or nil.
  static func payload(_ token: String) -> JSONValue? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var text = parts[1].replacing("-", with: "+").replacing("_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: String(text)), case .object? = try? JSONParser.parse(Array(data)) else {
      return nil
    }
    return try? JSONParser.parse(Array(data))
  }
}
