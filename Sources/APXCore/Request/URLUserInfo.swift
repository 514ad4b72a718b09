/// The user name and password a URL may carry before its host (`http://user:pass@host`).
///
/// apx refuses them wherever a base URL is given (credentials go through `-a` or the
/// registry's auth, which mask them); `masked` shows such a URL as `user:***@host` in the
/// message that refuses it.
public enum URLUserInfo {
  /// The user information of `url` (what comes before the host's `@`), or nil for none.
  public static func range(in url: String) -> Range<String.Index>? {
    // A byte scan: this runs on every call's base URL, and a generic substring search costs more.
    let utf8 = url.utf8
    guard let separator = utf8.indices.first(where: { utf8[$0...].starts(with: "://".utf8) }) else { return nil }
    let start = utf8.index(separator, offsetBy: 3)
    var at: String.Index?
    var i = start
    while i < utf8.endIndex {
      let byte = utf8[i]
      if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
      if byte == UInt8(ascii: "@") { at = i }
      i = utf8.index(after: i)
    }
    return at.map { start..<$0 }
  }

  /// Whether `url` carries a user name or password.
  public static func isPresent(in url: String) -> Bool { range(in: url) != nil }

  /// `url` with its password shown as `***` (`user:***@host`); without a `:`, the whole user
  /// information may be a token and is masked (`***@host`).
  public static func masked(_ url: String) -> String {
    guard let info = range(in: url) else { return url }
    let user = url[info].firstIndex(of: ":").map { String(url[info.lowerBound..<$0]) + ":" } ?? ""
    return String(url[..<info.lowerBound]) + user + "***" + String(url[info.upperBound...])
  }
}
