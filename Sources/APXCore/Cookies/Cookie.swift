/// One cookie a server set (RFC 6265 §5.3), as a jar keeps it.
public struct Cookie: Sendable, Hashable {
  public var name: String
  public var value: String
  /// The host (`hostOnly`) or the domain and its subdomains it is sent to, lower-cased.
  public var domain: String
  /// Sent only to `domain` itself: the server gave no `Domain` attribute.
  public var hostOnly: Bool
  /// Sent only for request paths under this one.
  public var path: String
  /// Sent only over https.
  public var secure: Bool
  /// When it expires, in seconds since 1970; nil for a session cookie (kept while the jar is).
  public var expires: Double?

  public init(
    name: String, value: String, domain: String, hostOnly: Bool, path: String, secure: Bool, expires: Double?
  ) {
    self.name = name
    self.value = value
    self.domain = domain
    self.hostOnly = hostOnly
    self.path = path
    self.secure = secure
    self.expires = expires
  }

  /// Whether it is sent with a request to `url` at `now` (RFC 6265 §5.4).
  public func matches(_ url: CookieURL, now: Double) -> Bool {
    if let expires, expires <= now { return false }
    if secure && !url.secure { return false }
    let domainMatches = hostOnly ? url.host == domain : CookieURL.domainMatch(url.host, domain)
    return domainMatches && CookieURL.pathMatch(url.path, path)
  }
}
