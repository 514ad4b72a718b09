/// The cookies servers set during a run, sent back by RFC 6265's rules: within one process
/// (a recipe's steps, `--all`'s pages, a redirect's hops), and across processes with
/// `--session NAME`, which stores the jar.
///
/// A `Domain` attribute that is a public suffix (`com`, `co.uk`, a single label such as
/// `test`) is refused, as browsers refuse it (RFC 6265 §5.3 step 5), unless it is the request's
/// own host (the cookie is then host-only). `SameSite` and `HttpOnly` do not apply to a
/// command-line client.
public struct CookieJar: Sendable, Hashable {
  /// The cookies, at most one per (domain, path, name), oldest first.
  public private(set) var cookies: [Cookie] = []
  /// The most cookies a jar keeps; the oldest go first beyond it.
  public static let limit = 3000

  public init(_ cookies: [Cookie] = []) { self.cookies = cookies }

  /// Takes the `Set-Cookie` header values of an answer to `url`, received at `now`. A value
  /// that cannot be parsed, or that names a domain the URL's host is not in, is ignored, as
  /// browsers ignore it. Returns why each cookie whose `Domain` is a public suffix (by
  /// `suffixes`) was refused, for a note: that one is a server overreaching, not a typo.
  @discardableResult
  public mutating func store(
    _ setCookies: [String], from url: CookieURL, now: Double, suffixes: PublicSuffixList = .builtIn
  ) -> [String] {
    var refused: [String] = []
    for header in setCookies {
      var refusal: String?
      guard let cookie = Self.parse(header, from: url, now: now, suffixes: suffixes, refusal: &refusal) else {
        if let refusal { refused.append(refusal) }
        continue
      }
      cookies.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
      // An expiry in the past deletes the cookie (the usual way to log out).
      if let expires = cookie.expires, expires <= now { continue }
      cookies.append(cookie)
    }
    if cookies.count > Self.limit { cookies.removeFirst(cookies.count - Self.limit) }
    return refused
  }

  /// The `Cookie` header value for a request to `url` at `now`, nil when no cookie matches:
  /// longer paths first (RFC 6265 §5.4).
  public func header(for url: CookieURL, now: Double) -> String? {
    let matching = cookies.enumerated().filter { $0.element.matches(url, now: now) }
      .sorted { ($0.element.path.count, -$0.offset) > ($1.element.path.count, -$1.offset) }
    guard !matching.isEmpty else { return nil }
    return matching.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; ")
  }

  /// Drops the cookies expired at `now`.
  public mutating func removeExpired(now: Double) {
    cookies.removeAll { $0.expires.map { $0 <= now } ?? false }
  }

  /// One `Set-Cookie` value (RFC 6265 §5.2), or nil when it is unusable; `refusal` says why
  /// when its `Domain` is a public suffix.
  static func parse(
    _ header: String, from url: CookieURL, now: Double, suffixes: PublicSuffixList = .builtIn,
    refusal: inout String?
  ) -> Cookie? {
    var parts = header.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
    guard let pair = parts.next(), let equals = pair.firstIndex(of: "=") else { return nil }
    let name = pair[..<equals].trimmingWhitespace()
    let value = pair[pair.index(after: equals)...].trimmingWhitespace()
    guard !name.isEmpty, !(name + value).contains(where: { $0.isNewline || $0 == "\0" }) else { return nil }
    var cookie = Cookie(
      name: name, value: value, domain: url.host, hostOnly: true, path: url.defaultCookiePath, secure: false,
      expires: nil)
    var maxAge: Double?
    for attribute in parts {
      let (key, text): (String, String)
      if let eq = attribute.firstIndex(of: "=") {
        (key, text) = (
          attribute[..<eq].trimmingWhitespace().lowercased(),
          attribute[attribute.index(after: eq)...].trimmingWhitespace()
        )
      } else {
        (key, text) = (attribute.trimmingWhitespace().lowercased(), "")
      }
      switch key {
      case "domain":
        var domain = text.lowercased()
        if domain.hasPrefix(".") { domain.removeFirst() }
        guard !domain.isEmpty else { continue }
        guard CookieURL.domainMatch(url.host, domain) else { return nil }
        if suffixes.isPublicSuffix(domain) {
          // The host itself may be one (a server on `localhost`): the cookie is then host-only.
          guard domain == url.host else {
            refusal =
              "ignored the cookie \"\(name)\" from \(url.host): its Domain=\(domain) is a public suffix "
              + "(by \(suffixes.source)), so it would go to every site under it"
            return nil
          }
          continue
        }
        cookie.domain = domain
        cookie.hostOnly = false
      case "path":
        if text.hasPrefix("/") { cookie.path = text }
      case "secure":
        cookie.secure = true
      case "max-age":
        if let seconds = Int(text) { maxAge = seconds <= 0 ? -.infinity : Double(seconds) }
      case "expires":
        if let date = HTTPDate.parse(text, now: now) { cookie.expires = date }
      default:
        continue
      }
    }
    // Max-Age wins over Expires (RFC 6265 §5.3 step 3).
    if let maxAge { cookie.expires = maxAge == -.infinity ? now - 1 : now + maxAge }
    // A secure cookie set over plain http is refused (RFC 6265bis §5.6 step 9).
    if cookie.secure && !url.secure { return nil }
    return cookie
  }
}
