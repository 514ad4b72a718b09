import ArgumentParser
import Foundation
import Testing

@testable import apx

/// What `apx call`'s command line parses to, flag by flag: every name of every flag is set
/// by at least one line here (`everyNameOfEveryCallFlagIsParsedHere` checks that).
@Suite("apx call command lines")
struct CallCommandParsingTests {
  static func parse(_ arguments: [String]) throws -> CallCommand {
    let command = try APX.parseAsRoot(["call"] + arguments)
    return try #require(command as? CallCommand)
  }

  /// The message ArgumentParser (with apx's validation) refuses `arguments` with, or nil.
  static func refusal(_ arguments: [String]) -> String? {
    do {
      _ = try APX.parseAsRoot(["call"] + arguments)
      return nil
    } catch {
      return APX.message(for: error)
    }
  }

  /// The lines this suite parses; each name of each flag must appear in one.
  static let lines: [[String]] = [
    ["x.y", "--registry", "a", "--registry=b", "--env", "prod", "--base-url", "http://h:1", "--demo"],
    ["x.y", "-o", "ndjson", "--select", ".a", "-r", "--color", "never"],
    ["x.y", "--raw-output", "--output", "json"],
    ["x.y", "-H", "A: 1", "--header", "B: 2", "--timeout", "2.5", "--connect-timeout=0.25", "--retry", "3"],
    ["x.y", "--no-retry", "-v", "--verbose", "--insecure", "--cacert", "ca.pem"],
    ["x.y", "--cert", "c.pem", "--key", "k.pem", "--authority", "h:443", "--max-message-size", "1024"],
    ["x.y", "--emit-defaults", "-d", "{}", "--max-events", "5", "--token-stdin"],
    ["x.y", "--data=@b.json", "-a", "u:p", "--no-auth"],
    ["x.y", "--auth", "u:p", "--sse", "--until-event", "done", "--until-event=error", "-O", "out"],
    ["x.y", "--bearer", "t0k", "--output-file", "f", "--all", "--max-items", "2", "--max-pages", "3", "--form"],
    ["grpc://h:1/p.S/M", "--proto", "a.proto", "--import-path", "protos", "--save", "a.b"],
    ["grpc://h:1/p.S/M", "--protoset", "x.protoset", "--dry-run", "--show-secrets"],
    ["x.y", "--curl", "--show-secrets"],
    ["x.y", "--session", "work", "-O", "f", "--continue", "--har", "x.har"],
    ["x.y", "--proxy", "http://p:3128", "--noproxy", "a.example,10.0.0.0/8", "--http1.1"],
    ["ws://h:1/p", "--subprotocol", "a", "--subprotocol", "b.t", "--max-messages", "2", "--until", ".type==done"],
    [
      "http://h:1/g", "--graphql", "query Q { a }", "--operation", "Q", "--allow-partial", "--raw-response",
      "--graphql-transport", "sse",
    ],
    [":1/x", "-X", "PUT", "--request", "PUT"],
    ["http://h:1/g", "--graphql", "{ a }", "--max-document-size", "2048"],
    ["ws://h:1/p", "--reconnect-delay", "0.5"],
    ["x.y", "-i", "--include"],
  ]

  @Test func theGlobalOptionsReachTheCommand() throws {
    var c = try Self.parse(Self.lines[0])
    #expect(c.global.registry == ["a", "b"] && c.global.environment == "prod")
    #expect(c.global.baseURL == "http://h:1" && c.global.demo)
    c = try Self.parse(Self.lines[1])
    #expect(c.global.output == .ndjson && c.global.select == ".a" && c.global.rawOutput && c.global.color == .never)
    c = try Self.parse(Self.lines[2])
    #expect(c.global.output == .json && c.global.rawOutput && c.global.color == .auto)
    c = try Self.parse(["x.y", "--output=table"])
    #expect(c.global.output == .table && !c.global.rawOutput)
    c = try Self.parse(Self.lines[3])
    #expect(c.global.headers == ["A: 1", "B: 2"] && c.global.timeout == 2.5 && c.global.connectTimeout == 0.25)
    #expect(c.global.retry == 3 && !c.global.noRetry)
    #expect(c.global.headerFields.map(\.name) == ["A", "B"] && c.global.headerFields.map(\.value) == ["1", "2"])
    c = try Self.parse(Self.lines[4])
    #expect(c.global.noRetry && c.global.verbose && c.global.insecure && c.global.cacert == "ca.pem")
    c = try Self.parse(Self.lines[5])
    #expect(c.global.cert == "c.pem" && c.global.key == "k.pem" && c.global.authority == "h:443")
    #expect(c.global.maxMessageSize == 1024 && !c.global.emitDefaults)
    let settings = try c.global.grpcSettings([:])
    #expect(settings.authority == "h:443" && settings.maxMessageSize == 1024 && settings.clientKeyPath == "k.pem")
    c = try Self.parse(Self.lines[14])
    #expect(c.global.proxy == "http://p:3128" && c.global.noproxy == "a.example,10.0.0.0/8" && c.global.http1Only)
    let session = try c.global.sessionOptions([:])
    #expect(session.http1Only && session.proxy.proxy(forURL: "https://b.example")?.host == "p")
    #expect(session.proxy.proxy(forURL: "https://a.example") == nil)
    c = try Self.parse(Self.lines[15])
    #expect(
      c.webSocket.subprotocols == ["a", "b.t"] && c.webSocket.maxMessages == 2 && c.webSocket.until == ".type==done")
    c = try Self.parse(Self.lines[16])
    #expect(c.graphQL.document == "query Q { a }" && c.graphQL.operation == "Q")
    #expect(c.graphQL.allowPartial && c.graphQL.rawResponse && c.graphQL.transport == "sse")
  }

  @Test func theDefaultsAreTheDeclaredOnes() throws {
    let c = try Self.parse(["x.y"])
    #expect(c.global.registry.isEmpty && c.global.environment == nil && c.global.baseURL == nil && !c.global.demo)
    #expect(c.global.output == nil && c.global.select == nil && !c.global.rawOutput && c.global.color == .auto)
    #expect(c.global.headers.isEmpty && c.global.timeout == nil && c.global.retry == nil && !c.global.noRetry)
    #expect(c.global.connectTimeout == ConnectionOptions.defaultConnectTimeout)
    #expect(!c.global.verbose && !c.global.insecure && c.global.cacert == nil && c.global.cert == nil)
    #expect(c.global.key == nil && c.global.authority == nil && c.global.maxMessageSize == nil)
    #expect(!c.global.emitDefaults && c.target == "x.y" && c.params.isEmpty && c.data == nil)
    #expect(c.maxEvents == nil && !c.all && c.maxItems == nil && c.maxPages == nil && !c.tokenStdin && !c.form)
    #expect(c.basicAuth == nil && c.bearer == nil && !c.noAuth && !c.sse && c.untilEvent.isEmpty)
    #expect(!c.schema.isGiven && c.save == nil && c.outputFile == nil && !c.dryRun && !c.curl && !c.showSecrets)
  }

  @Test func theCallsOwnOptionsAreParsed() throws {
    var c = try Self.parse(Self.lines[6])
    #expect(c.global.emitDefaults && c.data == "{}" && c.maxEvents == 5 && c.tokenStdin)
    c = try Self.parse(Self.lines[7])
    #expect(c.data == "@b.json" && !c.form && c.basicAuth == "u:p" && c.noAuth)
    c = try Self.parse(Self.lines[8])
    #expect(c.basicAuth == "u:p" && c.sse && c.untilEvent == ["done", "error"] && c.outputFile == "out")
    c = try Self.parse(Self.lines[9])
    #expect(c.bearer == "t0k" && c.outputFile == "f" && c.all && c.maxItems == 2 && c.maxPages == 3 && c.form)
    c = try Self.parse(Self.lines[10])
    #expect(c.schema.protoFiles == ["a.proto"] && c.schema.importPaths == ["protos"] && c.save == "a.b")
    #expect(c.schema.commandLine == " --proto a.proto --import-path protos")
    c = try Self.parse(Self.lines[11])
    #expect(c.schema.protoset == "x.protoset" && c.dryRun && c.showSecrets && c.previewMode == .json)
    c = try Self.parse(Self.lines[12])
    #expect(c.curl && c.showSecrets && c.previewMode == .curl)
    c = try Self.parse(Self.lines[13])
    #expect(c.cookieSession.name == "work" && c.outputFile == "f" && c.continueDownload && c.harOption.path == "x.har")
  }

  @Test func positionalsAreTheTargetThenItemsAndBatches() throws {
    var c = try Self.parse(["POST", "http://127.0.0.1:1/x", "name=v", "n:=1", "X-Trace:abc", "q==cat", "f@a.txt"])
    #expect(
      c.target == "POST" && c.params == ["http://127.0.0.1:1/x", "name=v", "n:=1", "X-Trace:abc", "q==cat", "f@a.txt"])
    c = try Self.parse(["calc.add", "a:=1", "+", "calc.subtract", "minuend:=5"])
    #expect(c.calls.map(\.target) == ["calc.add", "calc.subtract"])
    #expect(c.calls.map(\.params) == [["a:=1"], ["minuend:=5"]])
    c = try Self.parse(["x.y", "--", "-a=1"])
    #expect(c.params == ["-a=1"] && c.basicAuth == nil)
  }

  @Test func aRepeatedOptionKeepsItsLastValue() throws {
    let c = try Self.parse(["x.y", "--env", "a", "--env", "b", "--select", ".x", "--select", ".y"])
    #expect(c.global.environment == "b" && c.global.select == ".y")
  }

  /// Lines ArgumentParser or apx's validation refuse, with the start of the message (a usage
  /// error: `ErrorReporter` exits 2 for each).
  static let refused: [(arguments: [String], message: String)] = [
    (["x.y", "--bogus"], "Unknown option '--bogus'"),
    (["x.y", "--timeout"], "Missing value for '--timeout"),
    (["x.y", "--timeout", "soon"], "The value 'soon' is invalid for '--timeout"),
    (["x.y", "--timeout", "0"], "--timeout must be a number of seconds from 0.001"),
    (["x.y", "--connect-timeout", "-1"], "--connect-timeout must be a number of seconds from 0.001"),
    (["x.y", "--retry", "0"], "--retry must be from 1 to 100 attempts"),
    (["x.y", "--retry", "2", "--no-retry"], "--retry and --no-retry cannot be used together"),
    (["x.y", "-r", "-o", "table"], "-r/--raw-output prints strings without JSON quotes"),
    (["x.y", "-o", "yaml"], "The value 'yaml' is invalid for '-o"),
    (["x.y", "--color", "pink"], "The value 'pink' is invalid for '--color"),
    (["x.y", "--cert", "c.pem"], "--cert and --key go together"),
    (["x.y", "-H", "no colon"], "-H 'no colon' needs the form 'Name: value'"),
    (["x.y", "--max-message-size", "0"], "--max-message-size must be a number of bytes from 1"),
    (["x.y", "--base-url", "ftp://h"], #"--base-url "ftp://h" must start with"#),
    (["x.y", "--max-events", "0"], "--max-events must be at least 1"),
    (["x.y", "--max-items", "2"], "--max-items goes with --all"),
    (["x.y", "--all", "--max-pages", "0"], "--max-pages must be between 1 and"),
    (["x.y", "--demo=true"], "The option '--demo' does not take any value"),
    (["x.y", "--token-stdin", "-d", "@-"], "--token-stdin reads stdin"),
    (["x.y", "--token-stdin", "a=@-.x"], "--token-stdin reads stdin"),
    ([":1/x", "-a", "nocolon"], "-a needs USER:PASSWORD"),
    ([":1/x", "--form", "-d", "{}"], "--form builds the body from items"),
    ([":1/x", "-a", "u:p", "--bearer", "t"], "-a, --bearer and --token-stdin each give the credentials"),
    (["a.b", "+"], "a + must be followed by another call"),
    (["a.b", "+", "a.c", "-d", "{}"], "-d cannot be used in a batch"),
    (["g://h", "--protoset", "x", "--proto", "y"], "--protoset and --proto each give the schema"),
    (["g://h", "--import-path", "d"], "--import-path goes with --proto FILE"),
    (["x.y", "--dry-run", "--curl"], "--dry-run prints the request as JSON and --curl as a command line"),
    (["x.y", "--show-secrets"], "--show-secrets goes with --dry-run or --curl"),
    (["x.y", "--curl", "-o", "raw"], "--curl prints a command line"),
    ([":1/x", "--dry-run", "--save", "a.b"], "--dry-run sends nothing, so no call succeeds for --save"),
    (["x.y", "--curl", "--max-events", "2"], "curl cannot stop a stream"),
  ]

  @Test(arguments: zip(refused.map(\.arguments), refused.map(\.message)))
  func invalidLinesAreRefusedWithTheirMessage(_ arguments: [String], _ message: String) {
    let refusal = Self.refusal(arguments)
    #expect(refusal?.hasPrefix(message) == true, "\(arguments): \(refusal ?? "accepted")")
  }

  /// A negative number is the value of a numeric option, refused with the option's range
  /// message, not taken for an unknown flag ("Missing value").
  @Test(arguments: [
    ["--all", "--max-items"], ["--all", "--max-pages"], ["--max-events"], ["--retry"], ["--timeout"],
    ["--connect-timeout"], ["--max-message-size"],
  ])
  func aNegativeNumberIsTheOptionsValue(_ option: [String]) {
    for line in [["x.y"] + option + ["-1"], ["x.y"] + option.dropLast() + [option.last! + "=-1"]] {
      let message = Self.refusal(line) ?? ""
      #expect(message.hasPrefix(option.last! + " must"), "\(line): \(message)")
    }
  }

  /// A flag added to `apx call` gets a line here: this test names any that has none.
  @Test func everyNameOfEveryCallFlagIsParsedHere() throws {
    let names = Self.flagNames(inHelp: APX.helpMessage(for: CallCommand.self, columns: 400))
    #expect(names.count > 20)
    let used = Set(Self.lines.joined().map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? $0 })
    for name in names where !["-h", "--help", "--version"].contains(name) {
      #expect(used.contains(name), "no line in CallCommandParsingTests.lines uses \(name)")
    }
    for line in Self.lines { _ = try Self.parse(line) }
  }

  /// Every option of `apx call --help` stands under a heading (Body, Auth, Streams, ...): the
  /// untitled OPTIONS list keeps only --version and --help.
  @Test func everyCallOptionIsUnderAHeading() throws {
    let help = APX.helpMessage(for: CallCommand.self, columns: 400)
    let untitled = try #require(help.components(separatedBy: "\nOPTIONS:\n").dropFirst().first)
    let names = Self.flagNames(inHelp: "OPTIONS:\n" + untitled.components(separatedBy: "\n\n")[0])
    #expect(Set(names) == ["--version", "-h", "--help"], "\(names)")
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
