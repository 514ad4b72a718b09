/// Which request headers carry credentials: their values are masked wherever they are shown,
/// and they are dropped when a redirect leaves the origin they were meant for.
public enum CredentialHeaders {
  /// Headers that always carry credentials (lower case).
  public static let standard: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
  ]

  /// Parts of a header name that mark a credential: `X-Goog-Api-Key`, `X-Vault-Token`,
  /// `X-Client-Secret`, `X-Amz-Security-Token`, `X-Session-Id`, `X-Signature`...
  static let marks = [
    "auth", "token", "secret", "password", "passwd", "apikey", "api-key", "api_key", "access-key", "access_key",
    "session", "cookie", "credential", "signature",
  ]

  /// Whether a header of this name carries a credential, by its name alone.
  public static func isCredential(_ name: String) -> Bool {
    let lower = name.lowercased()
    return standard.contains(lower) || marks.contains { lower.containsUTF8($0) }
      // `X-Custom-Pass`, `X-Pass`: a password by its last word, not `X-Bypass-Cache` or `X-Passenger`.
      || lower == "pass" || lower.hasSuffix("-pass") || lower.hasSuffix("_pass") || lower.containsUTF8("passphrase")
  }
}
