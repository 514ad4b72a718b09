import APXCore

/// A fast path for `apx call`'s command line that skips ArgumentParser.
///
/// Why by hand: ArgumentParser builds its model of every command through
/// reflection, and in a static binary of our size each first protocol
/// conformance lookup scans the whole conformance table. Measured with `perf`
/// on the release build: `parseAsRoot` was 51% of the CPU samples of one small
/// `apx call` (about 5 ms of the 11 ms the process used).
///
/// It accepts only plain, unambiguous forms (`--long value`, `--long=value`,
/// `-x value`, exact flags, positionals that do not start with `-`) and returns
/// nil for anything else — help, `--version`, unknown or combined flags, `--`,
/// a missing value, a value that starts with `-`, or values that fail
/// validation — so ArgumentParser then handles the line and its messages stay
/// the only ones users see. `FastCallArgumentsTests` checks it against
/// ArgumentParser on a corpus of command lines and that it knows every flag
/// `apx call` has.
enum FastCallArguments {
  /// The invocation `arguments` (without the program name) describe, or nil to use ArgumentParser.
  static func parse(_ arguments: [String]) -> CallInvocation? {
    guard arguments.first == "call" else { return nil }
    var invocation = CallInvocation()
    var positionals: [String] = []
    var index = 1
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      if let flag = flag(named: name) {
        guard attached == nil else { return nil }
        invocation[keyPath: flag] = true
        continue
      }
      guard isOption(name) else { return nil }
      let value: String
      if let attached {
        value = attached
      } else {
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
        value = arguments[index]
        index += 1
      }
      guard store(value, option: name, in: &invocation) else { return nil }
    }
    guard let target = positionals.first else { return nil }
    invocation.target = target
    invocation.params = Array(positionals.dropFirst())
    guard invocation.global.problem == nil, invocation.problem == nil else { return nil }
    return invocation
  }

  /// The property a flag of `apx call` sets, by any of its names.
  static func flag(named name: String) -> WritableKeyPath<CallInvocation, Bool>? {
    switch name {
    case "--demo": \.global.demo
    case "-r", "--raw-output": \.global.rawOutput
    case "--no-retry": \.global.noRetry
    case "-v", "--verbose": \.global.verbose
    case "--insecure": \.global.insecure
    case "--emit-defaults": \.global.emitDefaults
    case "--token-stdin": \.tokenStdin
    case "--form": \.form
    case "--no-auth": \.noAuth
    case "--sse": \.sse
    case "--dry-run": \.dryRun
    case "--curl": \.curl
    case "--show-secrets": \.showSecrets
    case "--all": \.all
    default: nil
    }
  }

  /// Every name of every option (flag with a value) of `apx call`.
  static let optionNames: Set<String> = [
    "--registry", "--env", "--base-url", "--select", "--timeout", "--connect-timeout", "--retry", "--color",
    "--cacert", "--cert", "--key", "--authority", "--max-message-size", "--max-events", "--max-items", "--max-pages",
    "-o", "--output",
    "-H", "--header", "-d", "--data", "-a", "--auth", "--bearer",
    "--until-event", "--proto", "--import-path", "--protoset", "--save", "-O", "--output-file",
  ]

  static func isOption(_ name: String) -> Bool { optionNames.contains(name) }

  /// Stores an option's value; false when it does not convert to the option's type.
  private static func store(_ value: String, option name: String, in i: inout CallInvocation) -> Bool {
    switch name {
    case "--registry": i.global.registry.append(value)
    case "--env": i.global.environment = value
    case "--base-url": i.global.baseURL = value
    case "--select": i.global.select = value
    case "--cacert": i.global.cacert = value
    case "--cert": i.global.cert = value
    case "--key": i.global.key = value
    case "--authority": i.global.authority = value
    case "-H", "--header": i.global.headers.append(value)
    case "-d", "--data": i.data = value
    case "-a", "--auth": i.basicAuth = value
    case "--bearer": i.bearer = value
    case "--until-event": i.untilEvent.append(value)
    case "--proto": i.schema.protoFiles.append(value)
    case "--import-path": i.schema.importPaths.append(value)
    case "--protoset": i.schema.protoset = value
    case "--save": i.save = value
    case "-O", "--output-file": i.outputFile = value
    case "--timeout":
      guard let d = Double(value) else { return false }
      i.global.timeout = d
    case "--connect-timeout":
      guard let d = Double(value) else { return false }
      i.global.connectTimeout = d
    case "--retry":
      guard let n = Int(value) else { return false }
      i.global.retry = n
    case "--max-message-size":
      guard let n = Int(value) else { return false }
      i.global.maxMessageSize = n
    case "--max-events":
      guard let n = Int(value) else { return false }
      i.maxEvents = n
    case "--max-items":
      guard let n = Int(value) else { return false }
      i.maxItems = n
    case "--max-pages":
      guard let n = Int(value) else { return false }
      i.maxPages = n
    case "--color":
      guard let mode = ColorMode(rawValue: value) else { return false }
      i.global.color = mode
    case "-o", "--output":
      guard let format = OutputFormat(rawValue: value) else { return false }
      i.global.output = format
    default:
      return false
    }
    return true
  }
}
