import Foundation
import Testing

/// Every command's `--help`, word for word, against a reviewed copy in Tests/HelpSnapshots/:
/// a change to any help text shows up in review as a change to a snapshot.
/// The command tree is read from the help itself (each SUBCOMMANDS list), so a new command
/// without a snapshot fails too.
///
/// After changing help on purpose: `APX_UPDATE_HELP_SNAPSHOTS=1 swift test --filter
/// HelpSnapshotTests`, then review the diff of Tests/HelpSnapshots/.
@Suite("help snapshots")
struct HelpSnapshotTests {
  /// The width help is rendered at: the narrowest terminal help is laid out for.
  static let columns = 80
  static let folder = APXProcess.packageRoot.appendingPathComponent("Tests/HelpSnapshots")
  static var updating: Bool { ProcessInfo.processInfo.environment["APX_UPDATE_HELP_SNAPSHOTS"] == "1" }

  static func help(_ command: [String]) async throws -> String {
    let r = try await APXProcess.run(command + ["--help"], environment: ["COLUMNS": "\(columns)"])
    #expect(r.status == 0, "apx \(command.joined(separator: " ")) --help: \(r.stderr)")
    return r.stdout
  }

  /// The names under a help text's SUBCOMMANDS heading.
  static func subcommands(in help: String) -> [String] {
    var names: [String] = []
    var inList = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "SUBCOMMANDS:" {
        inList = true
      } else if inList {
        // A name starts two spaces in; its description's continuation lines start further in.
        guard line.hasPrefix("  "), !line.hasPrefix("   ") else {
          if line.isEmpty { break }
          continue
        }
        let name = line.dropFirst(2).prefix { $0 != " " }
        if !name.isEmpty, name != "See" { names.append(String(name)) }
      }
    }
    return names
  }

  /// Every command reachable from `apx --help`, root first.
  static func commandTree() async throws -> [[String]: String] {
    var found: [[String]: String] = [:]
    var queue: [[String]] = [[]]
    while let command = queue.popLast() {
      let text = try await help(command)
      found[command] = text
      queue += subcommands(in: text).map { command + [$0] }
      // Bounded: the tree has a few dozen commands, never thousands.
      #expect(found.count < 200, "the help tree does not end")
      if found.count >= 200 { break }
    }
    return found
  }

  static func fileName(_ command: [String]) -> String {
    (["apx"] + command).joined(separator: "-") + ".txt"
  }

  /// Where two texts first differ, as the line number and both lines.
  static func firstDifference(_ expected: String, _ actual: String) -> String {
    let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for i in 0..<max(a.count, b.count) {
      let left = i < a.count ? String(a[i]) : "(end of text)"
      let right = i < b.count ? String(b[i]) : "(end of text)"
      if left != right { return "line \(i + 1):\n  snapshot: \(left)\n  apx now:  \(right)" }
    }
    return "no difference"
  }

  @Test func everyCommandsHelpMatchesItsSnapshot() async throws {
    let tree = try await Self.commandTree()
    #expect(tree.keys.contains(["import", "openapi"]) && tree.keys.contains(["auth", "token"]), "\(tree.keys)")
    if Self.updating {
      try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
    }
    for (command, text) in tree.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      let file = Self.folder.appendingPathComponent(Self.fileName(command))
      if Self.updating {
        try Data(text.utf8).write(to: file)
        continue
      }
      guard let snapshot = try? String(contentsOf: file, encoding: .utf8) else {
        Issue.record(
          "apx \(command.joined(separator: " ")) has no help snapshot \(file.lastPathComponent): run with APX_UPDATE_HELP_SNAPSHOTS=1"
        )
        continue
      }
      if snapshot != text {
        Issue.record(
          "apx \(command.joined(separator: " ")) --help differs from \(file.lastPathComponent), \(Self.firstDifference(snapshot, text))\nif on purpose, run with APX_UPDATE_HELP_SNAPSHOTS=1 and review the diff"
        )
      }
    }
    // A snapshot whose command is gone is stale.
    let expected = Set(tree.keys.map(Self.fileName))
    let present = Set((try? FileManager.default.contentsOfDirectory(atPath: Self.folder.path)) ?? [])
    #expect(
      present.subtracting(expected).isEmpty,
      "snapshots of commands that no longer exist: \(present.subtracting(expected).sorted())")
  }

  @Test func theSubcommandListIsReadAsUsersSeeIt() {
    let text = """
      USAGE: apx auth <subcommand>

      SUBCOMMANDS:
        login                   Get a new token for an API now and store it (prints a
                                summary, not the token).
        status                  Show stored tokens.

        See 'apx help auth <subcommand>' for detailed help.
      """
    #expect(Self.subcommands(in: text) == ["login", "status"])
  }
}
