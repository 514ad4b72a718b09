import APXCore
import ArgumentParser

/// The names of the options that take a value (`--env NAME`, `-H HEADER`), so completion
/// can tell an option's value from a positional word.
///
/// Read from ArgumentParser's own description of the commands (`_dumpHelp`, the JSON behind
/// `--experimental-dump-help`), so a flag is declared once, with its `@Option`. One set per
/// subcommand (its own subcommands included): a name may take a value in one command and none
/// in another (`apx call --graphql DOC`, `apx list URL --graphql`), but not both within one
/// (`ValueOptionNamesTests` checks it).
enum ValueOptionNames {
  /// Every name (`-x`, `--long`) of every option of every `apx` command.
  static let all: Set<String> = names(inDump: APX._dumpHelp(), kinds: ["option"])

  /// The option names of each subcommand of `apx`, by its name.
  static let byCommand: [String: Set<String>] = {
    guard let root = try? JSONParser.parse(APX._dumpHelp()) else { return [:] }
    var out: [String: Set<String>] = [:]
    for subcommand in root["command"]?["subcommands"]?.arrayValue ?? [] {
      guard let name = subcommand["commandName"]?.stringValue else { continue }
      var names: Set<String> = []
      collect(subcommand, kinds: ["option"], into: &names)
      out[name] = names
    }
    return out
  }()

  /// Whether `word` names an option of the subcommand `command` (nil or unknown: of any command)
  /// that takes the next word as its value.
  static func contains(_ word: String, command: String? = nil) -> Bool {
    (command.flatMap { byCommand[$0] } ?? all).contains(word)
  }

  /// The names of the arguments of `kinds` (`option`, `flag`) in a `_dumpHelp` document,
  /// through every subcommand.
  static func names(inDump dump: String, kinds: Set<String>) -> Set<String> {
    guard let root = try? JSONParser.parse(dump), let command = root["command"] else { return [] }
    var out: Set<String> = []
    collect(command, kinds: kinds, into: &out)
    return out
  }

  private static func collect(_ command: JSONValue, kinds: Set<String>, into out: inout Set<String>) {
    for argument in command["arguments"]?.arrayValue ?? [] {
      guard let kind = argument["kind"]?.stringValue, kinds.contains(kind) else { continue }
      for name in argument["names"]?.arrayValue ?? [] {
        guard let text = name["name"]?.stringValue else { continue }
        out.insert((name["kind"]?.stringValue == "long" ? "--" : "-") + text)
      }
    }
    for subcommand in command["subcommands"]?.arrayValue ?? [] { collect(subcommand, kinds: kinds, into: &out) }
  }
}
