/// The parts of a request URL that decide which cookies it carries.
public struct CookieURL: Sendable, Hashable {
  /// Lower-cased, without port or brackets.
  public var host: String
  /// The path without query or fragment; `/` when empty.
  public var path: String
  /// https: secure cookies go only here.
  public var secure: Bool

  /// The parts of an absolute `http` or `https` URL; nil for anything else.
  public init?(_ url: String) {
    let lower = url.lowercased()
    let schemeEnd: String.Index
    if lower.hasPrefix("https://") {
      secure = true
      schemeEnd = url.index(url.startIndex, offsetBy: 8)
    } else if lower.hasPrefix("http://") {
      secure = false
      schemeEnd = url.index(url.startIndex, offsetBy: 7)
    } else {
      return nil
    }
    let rest = url[schemeEnd...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var authority = rest[..<authorityEnd]
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    guard case .success(let parts) = Origin.split(authority) else { return nil }
    host = Origin.bare(parts.host).lowercased()
    let afterAuthority = rest[authorityEnd...]
    let pathText = afterAuthority.prefix { $0 != "?" && $0 != "#" }
    path = pathText.isEmpty ? "/" : String(pathText)
    if host.isEmpty { return nil }
  }

  /// The directory of this URL's path, the default path of a cookie it sets (RFC 6265 §5.1.4).
  public var defaultCookiePath: String {
    guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
    return String(path[..<slash])
  }

  /// RFC 6265 §5.1.3: `host` is `domain` or a subdomain of it (never for an IP address).
  public static func domainMatch(_ host: String, _ domain: String) -> Bool {
    if host == domain { return true }
    let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    return !isAddress && host.hasSuffix("." + domain)
  }

  /// RFC 6265 §5.1.4: `requestPath` is `cookiePath` or below it.
  public static func pathMatch(_ requestPath: String, _ cookiePath: String) -> Bool {
    guard requestPath.hasPrefix(cookiePath) else { return false }
    return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
      || requestPath.dropFirst(cookiePath.count).first == "/"
  }
}
