import Foundation
import Testing

/// docs/platforms.md lists every place the platforms differ: each `#if canImport(...)` or
/// `#if os(...)` branch in Sources/ and Tests/ is either one of the import selections the page
/// names, or sits in a file the page lists.
@Suite("platform branches are documented")
struct PlatformBranchTests {
  /// The modules whose import-only branches docs/platforms.md describes as a kind.
  static let importKinds: Set<String> = [
    "FoundationEssentials", "Glibc", "Musl", "Darwin", "System", "FoundationNetworking",
  ]

  /// One `#if ... #endif` whose conditions name a platform: its file, line, the modules or
  /// systems it tests, and whether every branch only imports.
  struct Branch {
    var file: String
    var line: Int
    var names: Set<String>
    var importsOnly: Bool
  }

  /// The platform branches of a Swift source (nested `#if`s inside one are part of it).
  static func branches(in text: String, file: String) -> [Branch] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    var found: [Branch] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      guard line.hasPrefix("#if "), line.contains("canImport(") || line.contains("os(") else {
        index += 1
        continue
      }
      var names = Self.names(line)
      var importsOnly = !line.contains("os(")
      var depth = 0
      var end = index + 1
      while end < lines.count {
        let inner = lines[end]
        if inner.hasPrefix("#if") { depth += 1 }
        if inner.hasPrefix("#endif") {
          if depth == 0 { break }
          depth -= 1
        } else if depth == 0, inner.hasPrefix("#elseif") || inner.hasPrefix("#else") {
          names.formUnion(Self.names(inner))
          if inner.contains("os(") { importsOnly = false }
        } else if !inner.isEmpty, !inner.hasPrefix("//"), !Self.isImport(inner) {
          importsOnly = false
        }
        end += 1
      }
      found.append(Branch(file: file, line: index + 1, names: names, importsOnly: importsOnly))
      index = end + 1
    }
    return found
  }

  static func names(_ condition: String) -> Set<String> {
    var names: Set<String> = []
    for part in condition.split(separator: "(").dropFirst() {
      names.insert(String(part.prefix { $0 != ")" }))
    }
    return names
  }

  static func isImport(_ line: String) -> Bool {
    let words = line.split(separator: " ")
    guard let at = words.firstIndex(of: "import") else { return false }
    return words[..<at].allSatisfy { ["public", "internal", "package", "@preconcurrency", "@testable"].contains($0) }
  }

  /// Every Swift file under Sources/ and Tests/, generated code left out, relative to the package.
  static func swiftFiles() throws -> [String] {
    let root = APXProcess.packageRoot
    var files: [String] = []
    for top in ["Sources", "Tests"] {
      let folder = root.appendingPathComponent(top)
      guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
      for case let path as String in walker where path.hasSuffix(".swift") && !path.contains("/Generated/") {
        files.append(top + "/" + path)
      }
    }
    return files.sorted()
  }

  @Test func theParserSeesBothKinds() {
    // Spelled with `#` apart, so that the scan of this file does not count the sample.
    let sample = [
      "#", "if canImport(Glibc)\n  import Glibc\n", "#", "elseif canImport(Darwin)\n  public import Darwin\n",
      "#", "endif\n", "#", "if os(macOS)\n  let x = 1\n", "#", "else\n  let x = 2\n", "#", "endif",
    ].joined()
    let found = Self.branches(in: sample, file: "sample.swift")
    #expect(found.count == 2)
    #expect(found.first?.importsOnly == true && found.first?.names == ["Glibc", "Darwin"])
    #expect(found.last?.importsOnly == false && found.last?.line == 6)
  }

  @Test func everyBranchIsListedInPlatformsDoc() throws {
    let root = APXProcess.packageRoot
    let doc = try String(contentsOf: root.appendingPathComponent("docs/platforms.md"), encoding: .utf8)
    var total = 0
    for file in try Self.swiftFiles() {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      for branch in Self.branches(in: text, file: file) {
        total += 1
        if branch.importsOnly, branch.names.isSubset(of: Self.importKinds) { continue }
        #expect(
          doc.contains("`\(file)`"),
          "\(file):\(branch.line) has a platform branch (\(branch.names.sorted())) that docs/platforms.md does not list"
        )
      }
    }
    #expect(total > 0, "no platform branches found: the scan is broken")
  }
}
