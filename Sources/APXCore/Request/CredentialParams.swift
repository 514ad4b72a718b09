/// Parameter names that carry credentials (`api_key`, `access_token`, `password`,
/// `clientSecret`...): the one rule for what apx writes and shows. `--save` keeps their
/// values out of registry files, and `-v`, `--dry-run`, `--curl` and messages mask them.
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
    "secretkey", "accesskey", "signature", "codeverifier", "devicecode",
  ]

  /// Whether a parameter of this name carries a credential.
  public static func isCredential(_ name: String) -> Bool {
    let folded = String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    return names.contains(folded) || endings.contains { folded.hasSuffix($0) }
  }

  /// Whether a path segment is a credential: a value (`SavedEndpoint.isIDLike`) after a
  /// segment with a credential name (`/token/abc123`; not `/auth/login`).
  static func isCredentialSegment(_ segment: Substring, after previous: Substring) -> Bool {
    SavedEndpoint.isIDLike(String(segment)) && isCredential(PercentDecoding.decode(String(previous)))
  }

  /// The credentials written into a URL: the value of each query pair with a credential
  /// name (`?access_token=...`), and each path segment after a credential-named one
  /// (`/api_key/VALUE/...`, when the value holds a digit, as an id does for `--save`), as
  /// written and percent-decoded.
  public static func values(inURL url: String) -> [String] {
    var values: [String] = []
    func add(_ raw: Substring) {
      guard !raw.isEmpty else { return }
      values.append(String(raw))
      let decoded = PercentDecoding.decode(String(raw))
      if decoded != raw { values.append(decoded) }
    }
    let withoutFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var previous: Substring?
    // The path's segments; the scheme and host (before the third `/`) are no path.
    for segment in parts[0].split(separator: "/", omittingEmptySubsequences: false).dropFirst(3) {
      if let previous, isCredentialSegment(segment, after: previous) { add(segment) }
      previous = segment.isEmpty ? nil : segment
    }
    if parts.count > 1 {
      for pair in parts[1].split(separator: "&") {
        let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        if nameAndValue.count == 2, isCredential(PercentDecoding.decode(String(nameAndValue[0]))) {
          add(nameAndValue[1])
        }
      }
    }
    return values
  }
}
