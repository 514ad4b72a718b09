public import APXCore

/// The system's copy of the Public Suffix List, read once, when a cookie first names a
/// `Domain`: Debian's and Ubuntu's `publicsuffix` package, Homebrew's `publicsuffix-list`.
/// Without one, `PublicSuffixList.builtIn` applies (and the note on a refused cookie says so).
public enum SystemPublicSuffixList {
  /// Where the list is looked for, in order.
  static let paths = [
    "/usr/share/publicsuffix/public_suffix_list.dat",
    "/usr/local/share/publicsuffix/public_suffix_list.dat",
    "/opt/homebrew/share/publicsuffix/public_suffix_list.dat",
  ]

  /// The list: the first readable file of `paths`, else the built-in rules.
  public static let shared: PublicSuffixList = {
    for path in paths {
      guard let bytes = try? FileBytes.read(path, limit: 8 << 20) else { continue }
      return PublicSuffixList(
        text: String(decoding: bytes, as: UTF8.self), source: "the Public Suffix List in \(path)")
    }
    return .builtIn
  }()
}
