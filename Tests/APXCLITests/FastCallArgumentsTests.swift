import ArgumentParser
import Foundation
import Testing

@testable import apx

/// The `apx call` fast path must mean exactly what ArgumentParser means, or step aside.
@Suite("apx call fast path vs ArgumentParser")
struct FastCallArgumentsTests {
  /// What ArgumentParser makes of a command line: the call's values, or nil when it refuses it.
  static func viaArgumentParser(_ arguments: [String]) -> CallInvocation? {
    guard let command = try? APX.parseAsRoot(arguments), let call = command as? CallCommand else { return nil }
    return call.invocation
  }

  static let accepted: [[String]] = [
    ["call", "books.capabilities.get"],
    ["call", "--demo", "books.capabilities.get", "--select", ".formats"],
    ["call", "books.imports.create", "csv=@books.csv", "-H", "Idempotency-Key: k1", "-H", "X-Other: 2"],
    ["call", "gifs.trending", "per_page:=2", "--env", "prod", "--env=staging", "-o", "ndjson"],
    ["call", "x.y", "--output=table", "--timeout", "2.5", "--connect-timeout=0.25", "--retry", "3"],
    ["call", "x.y", "--no-retry", "-v", "--verbose", "--color", "never", "--insecure"],
    ["call", "x.y", "--cacert", "ca.pem", "--cert", "c.pem", "--key", "k.pem", "--authority", "demo.test:443"],
    ["call", "x.y", "--max-message-size", "1024", "--emit-defaults", "--max-events", "5", "--base-url=http://h:1"],
    ["call", "x.y", "-d", "@body.json", "--registry", "a", "--registry=b", "name=value", "other:=[1,2]"],
    ["call", "x.y", "--data={\"a\":1}", "q=\\@literal", "job_id=@-.job_id"],
    ["call", "x.y", "--token-stdin", "id=3", ""],
    ["call", "x.y", "--timeout", "1e2", "--select=.a[0].b"],
    ["call", ":8080/p", "q==cat", "X-Trace:abc", "Remove:", "n:=1", "f@a.txt", "--form"],
    ["call", "POST", "http://127.0.0.1:1/x", "-a", "u:p", "--no-auth", "name=v"],
    ["call", "localhost:1/x", "--auth=u:p2", "-d", "@-"], ["call", "GET", "example.com/x", "--bearer", "t0k"],
    ["call", "books.imports.status", "job_id=1", "X-Trace:abc", "q==cat"],
    ["call", "grpc://h:1/p.S/M", "--proto", "a.proto", "--import-path", "protos", "--proto=b.proto", "-d", "{}"],
    ["call", "grpcs://h:1/p.S/M", "--protoset", "x.protoset", "-H", "k: v", "id=1", "--save", "a.b"],
    ["call", "--sse", "http://h:1/s", "--until-event", "done", "--until-event=error", "--max-events", "3"],
    ["call", "x.y", "-r", "--select", ".a"], ["call", "x.y", "--raw-output", "-o", "ndjson"],
    ["call", "x.y", "--dry-run", "--show-secrets", "--select", ".headers"],
    ["call", "grpc://h:1/p.S/M", "--curl", "id=1"], ["call", "POST", ":1/x", "--curl", "--show-secrets", "-a", "u:p"],
  ]

  static let refused: [[String]] = [
    [], ["list"], ["call"], ["--version"], ["call", "--help"], ["call", "-h"], ["call", "x.y", "--help"],
    ["call", "x.y", "--bogus"], ["call", "x.y", "-vH", "A: b"], ["call", "x.y", "-r", "-o", "table"],
    ["call", "x.y", "--", "-a=1"],
    ["call", "x.y", "--timeout"], ["call", "x.y", "--timeout", "-1"], ["call", "x.y", "--timeout", "0"],
    ["call", "x.y", "--timeout", "soon"], ["call", "x.y", "--retry", "0"],
    ["call", "x.y", "--retry", "2", "--no-retry"],
    ["call", "x.y", "-o", "yaml"], ["call", "x.y", "--color", "pink"], ["call", "x.y", "--cert", "c.pem"],
    ["call", "x.y", "-H", "no colon"], ["call", "x.y", "--max-events", "0"], ["call", "x.y", "--demo=true"],
    ["call", "x.y", "--token-stdin", "-d", "@-"], ["call", "x.y", "--token-stdin", "a=@-.x"],
    ["call", "x.y", "--max-message-size", "0"], ["call", "--generate-completion-script", "bash"],
    ["call", ":1/x", "-a", "nocolon"], ["call", ":1/x", "--form", "-d", "{}"],
    ["call", ":1/x", "-a", "u:p", "--bearer", "t"],
    ["call", "x.y", "--dry-run", "--curl"], ["call", "x.y", "--show-secrets"], ["call", "x.y", "--curl", "-o", "raw"],
    ["call", ":1/x", "--dry-run", "--save", "a.b"], ["call", "x.y", "--curl", "--max-events", "2"],
  ]

  @Test(arguments: accepted)
  func acceptedLinesMeanWhatArgumentParserMeans(_ arguments: [String]) throws {
    let fast = try #require(FastCallArguments.parse(arguments), "the fast path should take \(arguments)")
    let reference = try #require(Self.viaArgumentParser(arguments), "ArgumentParser refused \(arguments)")
    #expect(fast == reference)
  }

  @Test(arguments: refused)
  func unusualOrInvalidLinesAreLeftToArgumentParser(_ arguments: [String]) {
    #expect(FastCallArguments.parse(arguments) == nil)
  }

  /// A negative number is the value of a numeric option: the fast path steps aside (it takes no
  /// value starting with `-`) and ArgumentParser refuses it with the option's range message, as
  /// it does 0, not with "Missing value".
  @Test(arguments: [
    ["--all", "--max-items"], ["--all", "--max-pages"], ["--max-events"], ["--retry"], ["--timeout"],
    ["--connect-timeout"], ["--max-message-size"],
  ])
  func aNegativeNumberIsTheOptionsValue(_ option: [String]) {
    for line in [["call", "x.y"] + option + ["-1"], ["call", "x.y"] + option.dropLast() + [option.last! + "=-1"]] {
      #expect(FastCallArguments.parse(line) == nil, "\(line)")
      var message = ""
      do {
        _ = try APX.parseAsRoot(line)
      } catch {
        message = APX.message(for: error)
      }
      #expect(message.hasPrefix(option.last! + " must"), "\(line): \(message)")
    }
  }

  @Test func repeatedValuesKeepTheLastLikeArgumentParser() throws {
    let line = ["call", "x.y", "--env", "a", "--env", "b", "--select", ".x", "--select", ".y"]
    let fast = try #require(FastCallArguments.parse(line))
    #expect(fast.global.environment == "b")
    #expect(fast == Self.viaArgumentParser(line))
  }

  /// A flag added to `apx call` later must be taught to the fast path, or every
  /// line that uses it silently takes the slow path: this test names it.
  @Test func theFastPathKnowsEveryNameOfEveryCallFlag() throws {
    let names = Self.flagNames(inHelp: APX.helpMessage(for: CallCommand.self, columns: 400))
    #expect(names.count > 20)
    for name in names where !["-h", "--help", "--version"].contains(name) {
      #expect(
        FastCallArguments.flag(named: name) != nil || FastCallArguments.isOption(name),
        "FastCallArguments does not know \(name)")
    }
  }

  /// The `-x`/`--long` names in a help text's option lines.
  static func flagNames(inHelp help: String) -> [String] {
    var names: [String] = []
    for line in help.split(separator: "\n") {
      let trimmed = line.drop(while: { $0 == " " })
      guard trimmed.hasPrefix("-") else { continue }
      // "-o, --output <FORMAT>  text": the names come before the first double space.
      let head = trimmed.components(separatedBy: "  ").first ?? ""
      for word in head.split(whereSeparator: { $0 == " " || $0 == "," }) where word.hasPrefix("-") {
        names.append(String(word))
      }
    }
    return names
  }
}
