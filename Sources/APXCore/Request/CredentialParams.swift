/// Parameter names that carry credentials (`api_key`, `access_token`, `password`,
/// `clientSecret`...), so `--save` keeps their values out of registry files.
///
/// Stricter than `CredentialHeaders`: a header named `X-Author` is rare, a parameter named
/// `author`, `page_token` or `session_name` is not, and losing its saved value would make the
/// saved call ask for it.
public enum CredentialParams {
  /// Names, without `_` and `-` and lower-cased, that are credentials as a whole.
  static let names: Set<String> = [
    "token", "key", "auth", "sig", "jwt", "bearer", "session", "sessionid", "credential", "credentials",
  ]
  /// Endings, in the same form, that make a name a credential (`client_secret`, `X-Amz-Signature`).
  static let endings = [
    "password", "passwd", "secret", "apikey", "accesstoken", "refreshtoken", "authtoken", "idtoken", "privatekey",
    "secretkey", "accesskey", "signature",
  ]

  /// Whether a parameter of this name carries a credential.
  public static func isCredential(_ name: String) -> Bool {
    let folded = String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    return names.contains(folded) || endings.contains { folded.hasSuffix($0) }
  }
}
