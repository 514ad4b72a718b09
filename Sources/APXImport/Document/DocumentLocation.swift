public import APXCore

/// Where one file of an API description lives: an absolute file path or an http(s) URL,
/// without a fragment. A description split over several files names the others by
/// `$ref`s relative to the file they are written in.
public enum DocumentLocation: Hashable, Sendable {
  /// An absolute, normalized file path (no `.` or `..` segments).
  case file(String)
  /// An http(s) URL without its fragment.
  case url(String)

  /// A file location for `path`, made absolute against `directory` when relative.
  public static func file(_ path: String, in directory: String) -> DocumentLocation {
    .file(Self.normalized(path.hasPrefix("/") ? path : directory + "/" + path))
  }

  /// The text a canonical `$ref` carries before its `#`.
  public var key: String {
    switch self {
    case .file(let path): path
    case .url(let url): url
    }
  }

  public var isRemote: Bool {
    if case .url = self { return true }
    return false
  }

  /// The location the part of `reference` before `#` names, relative to this one;
  /// nil when the reference is local (`#/...`) or names a scheme apx does not read.
  public func resolving(_ reference: String) -> DocumentLocation? {
    let target = String(reference.prefix { $0 != "#" })
    if target.isEmpty { return nil }
    let lower = target.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return .url(target) }
    if lower.hasPrefix("file://") { return .file(Self.normalized(PercentDecoding.decode(String(target.dropFirst(7))))) }
    if Self.hasScheme(target) { return nil }
    switch self {
    case .file(let path):
      let decoded = PercentDecoding.decode(target)
      if decoded.hasPrefix("/") { return .file(Self.normalized(decoded)) }
      return .file(Self.normalized(Self.directory(of: path) + "/" + decoded))
    case .url(let base):
      return .url(Self.resolveURL(target, against: base))
    }
  }

  /// How messages name this location: relative to `root`'s folder when inside it.
  public func shown(relativeTo root: DocumentLocation) -> String {
    let folder = Self.directory(of: root.key) + "/"
    if key.hasPrefix(folder), key != root.key { return String(key.dropFirst(folder.count)) }
    return key
  }

  /// `scheme:` as RFC 3986 spells one (a letter, then letters, digits, `+`, `-`, `.`),
  /// longer than one character so that a Windows drive letter is not taken for one.
  static func hasScheme(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) > 1 else {
      return false
    }
    let scheme = text[..<colon]
    guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
    return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
  }

  /// Everything before the last `/` (the folder a file or URL path is in).
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
  }

  /// `path` without empty, `.` and `..` segments (`..` at the top stays at the top).
  static func normalized(_ path: String) -> String {
    var out: [Substring] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
      if segment == "." { continue }
      if segment == ".." {
        if !out.isEmpty { out.removeLast() }
        continue
      }
      out.append(segment)
    }
    return "/" + out.joined(separator: "/")
  }

  /// RFC 3986 section 5.2: a relative reference against an absolute http(s) base.
  static func resolveURL(_ reference: String, against base: String) -> String {
    guard let colon = base.firstIndex(of: ":"), base[colon...].hasPrefix("://") else { return reference }
    let scheme = base[..<colon]
    let afterScheme = base[base.index(colon, offsetBy: 3)...]
    let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    var basePath = String(afterScheme.dropFirst(authority.count).prefix { $0 != "?" && $0 != "#" })
    if basePath.isEmpty { basePath = "/" }
    if reference.hasPrefix("//") { return scheme + ":" + reference }
    let refPath = String(reference.prefix { $0 != "?" })
    let query = reference.dropFirst(refPath.count)
    let merged: String
    if refPath.isEmpty {
      merged = basePath
    } else if refPath.hasPrefix("/") {
      merged = refPath
    } else {
      merged = directory(of: basePath) + "/" + refPath
    }
    let trailing = refPath.hasSuffix("/") && merged != "/" ? "/" : ""
    return scheme + "://" + authority + normalized(merged) + trailing + query
  }
}
