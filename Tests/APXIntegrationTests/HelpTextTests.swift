import Foundation
import Testing

/// `--help` as users read it: each command lists only its options, once; preformatted text is
/// not re-wrapped at any width; the defaults help states are those of the option reference,
/// docs/options.md.
@Suite("help text")
struct HelpTextTests {
  static let commands: [[String]] = [
    [], ["call"], ["list"], ["describe"], ["validate"], ["import"], ["import", "openapi"], ["import", "grpc"],
    ["demo"], ["completions"], ["manual"], ["config"], ["auth"], ["auth", "login"], ["auth", "status"],
    ["auth", "token"], ["auth", "logout"], ["run"],
  ]

  static func help(_ command: [String], columns: Int = 200) async throws -> String {
    let r = try await APXProcess.run(command + ["--help"], environment: ["COLUMNS": "\(columns)"])
    #expect(r.status == 0, "\(command): \(r.stderr)")
    return r.stdout
  }

  /// The long option names a help text lists, in order.
  static func options(in help: String) -> [String] {
    help.split(separator: "\n").compactMap { line in
      let words = line.split(separator: " ")
      guard line.hasPrefix("  -"), let long = words.first(where: { $0.hasPrefix("--") }) else { return nil }
      return String(long.prefix { $0 != "," && $0 != "=" })
    }
  }

  /// `apx --version` alone is answered before ArgumentParser (`Main`); with another option
  /// beside it, ArgumentParser answers. Both print the same one line on stdout.
  @Test func versionIsTheSameLineWithOrWithoutArgumentParser() async throws {
    let fast = try await APXProcess.run(["--version"])
    let parsed = try await APXProcess.run(["--color", "never", "--version"])
    for r in [fast, parsed] {
      #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
      #expect(r.stdout.wholeMatch(of: /apx \d+\.\d+\.\d+\n/) != nil, "\(r.stdout)")
    }
    #expect(fast.stdout == parsed.stdout)
  }

  @Test func everyOptionIsListedOnce() async throws {
    for command in Self.commands {
      let listed = Self.options(in: try await Self.help(command))
      let repeated = Dictionary(grouping: listed, by: { $0 }).filter { $0.value.count > 1 }.keys
      #expect(repeated.isEmpty, "apx \(command.joined(separator: " ")) --help lists \(repeated.sorted()) twice")
    }
  }

  @Test func aCommandListsOnlyTheOptionsItTakes() async throws {
    let validate = Self.options(in: try await Self.help(["validate"]))
    #expect(
      validate == ["--registry", "--output", "--select", "--raw-output", "--color", "--version", "--help"],
      "\(validate)")
    let call = try await Self.help(["call"])
    for heading in ["REGISTRY OPTIONS:", "OUTPUT OPTIONS:", "CONNECTION OPTIONS:", "GRPC OPTIONS:"] {
      #expect(call.contains("\n" + heading + "\n"), "apx call --help has no \(heading)\n\(call)")
    }
    // The shared groups, then the command's own, each under its heading.
    let preview = try #require(call.range(of: "\nPREVIEW OPTIONS:\n"))
    #expect(call[preview.upperBound...].contains("--dry-run"))
    #expect(!call[preview.upperBound...].contains("--registry"))
    // An option accepted by a command is one its help lists.
    let rejected = try await APXProcess.run(["validate", "--cert", "x.pem"])
    #expect(rejected.status == 2, "\(rejected.stderr)")
  }

  @Test(arguments: [60, 200])
  func preformattedTextIsNotRewrapped(columns: Int) async throws {
    let root = try await Self.help([], columns: columns)
    let rootLines = root.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(rootLines.contains("  64+N  gRPC status N (78 UNAVAILABLE, 80 UNAUTHENTICATED)"), "\(root)")
    #expect(
      rootLines.contains("  2     usage: unknown flag, bad parameter or header, unknown API or endpoint"), "\(root)")
    let call = try await Self.help(["call"], columns: columns)
    let callLines = call.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      callLines.contains(
        "                   apx call books.imports.create csv=@b.csv | apx call books.imports.status job_id=@-.job_id"),
      "\(call)")
    #expect(call.contains(#"A '\' before ':', '=', '@', '[', ']' or '\' in a name"#), "\(call)")
    // Everything else fits the width: prose and option descriptions are wrapped to it.
    for command in Self.commands {
      let text = try await Self.help(command, columns: columns)
      var inDiscussion = true
      for line in text.split(separator: "\n") {
        if line.hasPrefix("USAGE:") {
          inDiscussion = false
          continue
        }
        if inDiscussion && line.hasPrefix(" ") { continue }
        let breakable = line.dropFirst(26).contains(" ") || (!line.hasPrefix(" ") && line.contains(" "))
        #expect(line.count <= columns || !breakable, "apx \(command) --help at \(columns) columns: \(line)")
      }
    }
    if columns == 200 {
      // Wide terminals get long lines: an option's description is not cut at 80.
      let until = callLines.first { $0.hasPrefix("  --until-event ") } ?? ""
      #expect(until.hasSuffix("is then a usage error)."), "\(until)")
    }
  }

  /// Every default ArgumentParser prints, `(default: V)`, is stated in the option reference's
  /// (docs/options.md) row for that option as "default ... V".
  @Test func helpDefaultsMatchTheOptionReference() async throws {
    let reference = try String(
      contentsOf: APXProcess.packageRoot.appendingPathComponent("docs/options.md"), encoding: .utf8)
    let rows = reference.split(separator: "\n").filter { $0.hasPrefix("| `") }
    var checked = 0
    for command in Self.commands {
      let text = try await Self.help(command)
      for line in text.split(separator: "\n") where line.hasPrefix("  -") {
        guard let option = line.split(separator: " ").first(where: { $0.hasPrefix("--") }),
          let mark = line.range(of: "default: ", options: .backwards)
        else { continue }
        var value = String(line[mark.upperBound...].prefix { $0 != ")" && $0 != ";" })
        if value.hasSuffix(".0") { value.removeLast(2) }
        let name = String(option)
        let candidates = rows.filter { row in
          let first = row.split(separator: "|").first ?? ""
          return first.contains("`" + name + " ") || first.contains("`" + name + "`")
            || first.contains("[" + name + " ") || first.contains(", " + name + " ")
        }
        // The reference may quote or punctuate differently; the words must be the same, in order.
        let wanted = Self.words(value)
        let stated = candidates.contains { row in
          guard let at = row.range(of: "default") else { return false }
          let after = Self.words(row[at.upperBound...])
          return after.indices.contains { Array(after[$0...].prefix(wanted.count)) == wanted }
        }
        #expect(
          stated,
          "apx \(command.joined(separator: " ")) --help says \(name) defaults to \(value); docs/options.md does not")
        checked += 1
      }
    }
    #expect(checked >= 8, "only \(checked) defaults found in help")
  }

  /// A default's words: lower-cased, split at spaces and punctuation, backticks dropped.
  static func words(_ text: some StringProtocol) -> [String] {
    text.lowercased().split(whereSeparator: { " ,;:()`".contains($0) }).map(String.init)
  }
}
