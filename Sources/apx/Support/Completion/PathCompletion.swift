import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// File and folder names for a path being typed (the part after `@`).
///
/// By hand rather than the shell's own file completion: the path sits inside a word
/// (`csv=@data/b`), which bash, zsh and fish only complete as a whole word. Folders end
/// with `/` so the next TAB goes on inside them; hidden names need a typed `.`.
enum PathCompletion {
  /// The names that complete `partial`, each as `lead + path`.
  static func complete(_ typed: String, lead: String) -> [String] {
    let partial = unescaped(typed)
    let slash = partial.lastIndex(of: "/")
    let folderPart = slash.map { String(partial[...$0]) } ?? ""
    let namePart = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
    let folder = folderPart.isEmpty ? "." : expandingTilde(folderPart)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
    var out: [String] = []
    for name in names.sorted() where name.hasPrefix(namePart) {
      if name.hasPrefix("."), !namePart.hasPrefix(".") { continue }
      let full = (folder.hasSuffix("/") ? folder : folder + "/") + name
      let isFolder = FileKind.isDirectory(full) == true
      out.append(lead + folderPart + name + (isFolder ? "/" : ""))
    }
    return out
  }

  /// The path as the shell will read it: bash and zsh hand the word over as typed, so the
  /// `my\ f` of a completed `my file.csv` (or one typed so) is `my f`.
  static func unescaped(_ typed: String) -> String {
    var out = ""
    var escaping = false
    for c in typed {
      if c == "\\", !escaping {
        escaping = true
        continue
      }
      escaping = false
      out.append(c)
    }
    return out
  }

  private static func expandingTilde(_ path: String) -> String {
    guard path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] else { return path }
    return home + path.dropFirst(1)
  }
}
