#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// File path text as Foundation's `NSString` path properties compute it (slashes compressed,
/// a trailing slash ignored). Written out because apx does not link full Foundation, whose
/// ICU data alone is 34 MB; FoundationEssentials keeps these internal.
public enum PathText {
  /// `/a/b/` -> `b`; `/` -> `/`; `` -> ``.
  public static func lastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed.count > 1, let slash = fixed.lastIndex(of: "/") else { return fixed }
    return String(fixed[fixed.index(after: slash)...])
  }

  /// `/a/b` -> `/a`; `/a` -> `/`; `a` -> ``; `/` -> `/`.
  public static func deletingLastComponent(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    if fixed == "/" || fixed.isEmpty { return fixed }
    guard let slash = fixed.lastIndex(of: "/") else { return "" }
    return slash == fixed.startIndex ? "/" : String(fixed[..<slash])
  }

  /// `run.jsonl` -> `run`; `.hidden`, `..` and `a` stay as they are; `a.` -> `a`.
  public static func deletingExtension(_ path: String) -> String {
    let fixed = fixingSlashes(path)
    guard fixed.count > 1, fixed != "..", !fixed.hasSuffix("/..") else { return fixed }
    let componentStart = fixed.lastIndex(of: "/").map { fixed.index(after: $0) } ?? fixed.startIndex
    guard let dot = fixed[componentStart...].lastIndex(of: "."), dot != componentStart else { return fixed }
    return String(fixed[..<dot])
  }

  /// The path with symbolic links, `.` and `..` resolved (`realpath`); a path that does not
  /// exist comes back with only its slashes and `.` components cleaned.
  public static func resolvingSymlinks(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    let absolute = path.hasPrefix("/")
    let parts = path.split(separator: "/").filter { $0 != "." }
    return (absolute ? "/" : "") + parts.joined(separator: "/")
  }

  /// Runs of `/` become one; a trailing `/` goes (except for `/` itself).
  private static func fixingSlashes(_ path: String) -> String {
    if path == "/" { return path }
    var out = ""
    out.reserveCapacity(path.utf8.count)
    var lastWasSlash = false
    for c in path {
      if c == "/" && lastWasSlash { continue }
      lastWasSlash = c == "/"
      out.append(c)
    }
    if out.count > 1, out.hasSuffix("/") { out.removeLast() }
    return out
  }
}
