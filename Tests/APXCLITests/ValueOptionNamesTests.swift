import APXCore
import Foundation
import Testing

@testable import apx

/// The option names completion skips the value of, as read from ArgumentParser's model.
@Suite("Options that take a value, for completion")
struct ValueOptionNamesTests {
  @Test func optionsAreInAndFlagsAreOut() {
    for name in ["--registry", "--env", "--base-url", "-o", "--output", "--select", "--color", "-H", "--header"] {
      #expect(ValueOptionNames.contains(name), "\(name)")
    }
    for name in ["--timeout", "-d", "--data", "-a", "--auth", "-O", "--output-file", "--proto", "--port"] {
      #expect(ValueOptionNames.contains(name), "\(name)")
    }
    for name in ["-r", "--raw-output", "--demo", "-v", "--verbose", "--all", "--dry-run", "-h", "--help", "x.y"] {
      #expect(!ValueOptionNames.contains(name), "\(name)")
    }
  }

  /// Within one subcommand, no name takes a value in one place and none in another; across
  /// subcommands one may (`apx call --graphql DOC`, `apx list URL --graphql`).
  @Test func noNameIsAnOptionAndAFlagWithinOneCommand() throws {
    let root = try JSONParser.parse(APX._dumpHelp())
    var checked = 0
    for subcommand in root["command"]?["subcommands"]?.arrayValue ?? [] {
      let name = try #require(subcommand["commandName"]?.stringValue)
      let dump = JSONValue.object([JSONMember("command", subcommand)]).compactJSON
      let options = ValueOptionNames.names(inDump: dump, kinds: ["option"])
      let flags = ValueOptionNames.names(inDump: dump, kinds: ["flag"])
      #expect(options.intersection(flags).isEmpty, "\(name): \(options.intersection(flags))")
      #expect(ValueOptionNames.byCommand[name] == options)
      checked += 1
    }
    #expect(checked > 10)
    #expect(ValueOptionNames.contains("--graphql", command: "call"))
    #expect(!ValueOptionNames.contains("--graphql", command: "list"))
  }

  /// Every option `apx call --help` shows with a `<VALUE>` is in the set.
  @Test func everyOptionOfCallIsKnown() {
    let help = APX.helpMessage(for: CallCommand.self, columns: 400)
    var count = 0
    for line in help.split(separator: "\n") {
      let trimmed = line.drop(while: { $0 == " " })
      // "-o, --output <FORMAT>  text": the names and the value come before the first double space.
      let head = trimmed.components(separatedBy: "  ").first ?? ""
      guard trimmed.hasPrefix("-"), head.contains("<") else { continue }
      for word in head.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
        #expect(ValueOptionNames.contains(String(word)), "\(word)")
        count += 1
      }
    }
    #expect(count > 20)
  }
}
