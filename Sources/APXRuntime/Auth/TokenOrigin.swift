import Crypto

/// What obtained a stored token, as kept beside it in the token store: a token is reused only
/// by settings that would obtain it again, so changing the token URL, client, secret, scopes,
/// audience, extra fields or command fetches a new one.
///
/// Secrets are not stored: only a SHA-256 digest over every part (domain-separated and salted
/// by the readable parts), which the store can compare but not turn back into the secret.
enum TokenOrigin {
  /// `kind`, the readable parts one per line, then `sha256:<hex>` of everything including `secrets`.
  static func make(_ kind: String, readable: [String], secrets: [String]) -> String {
    var hash = SHA256()
    for part in ["apx-token-origin-v1", kind] + readable + secrets {
      hash.update(data: Array(part.utf8))
      hash.update(data: [0])  // a separator no part contains once encoded as UTF-8 text
    }
    let hex = hash.finalize().map { byte in
      let digits = String(byte, radix: 16)
      return byte < 16 ? "0" + digits : digits
    }.joined()
    return ([kind] + readable + ["sha256:" + hex]).joined(separator: "\n")
  }
}
