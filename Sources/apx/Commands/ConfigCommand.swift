import APXCore
import APXRuntime
import ArgumentParser

/// `apx config`: the effective settings and where each comes from (a flag, an environment
/// variable, the config file, or apx's default), as JSON.
struct ConfigCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "config",
    abstract: "Show the effective settings and where each comes from (flag, environment, config file, default).",
    discussion: """
      The config file is $XDG_CONFIG_HOME/apx/config.json (else ~/.config/apx/config.json),
      on macOS too. The report names it, the registry folders and the state folder:
        {"registry": ["~/apis"], "environments": {"books": "staging"}, "output": "json",
         "color": "never", "timeout": 30, "retry": 3}
      Flags override environment variables, which override the file, which overrides the defaults.
      """)

  @OptionGroup var global: GlobalOptions

  func run(in context: Context) async throws {
    let flags = global
    // The global options are here so that a flag's effect can be shown; the ones with no
    // setting in this report would be accepted and ignored, so they are refused.
    if let flag = Self.unreported(flags) {
      throw APXError(
        .usage, "apx config does not take \(flag)",
        hint:
          "it shows --registry, --env, -o, --color, --timeout, --retry/--no-retry, --proxy and --noproxy (and takes --select, -r)"
      )
    }
    let config = try context.configResult.get()
    let env = context.environment
    func setting(_ value: JSONValue, _ from: String) -> JSONValue {
      .object([JSONMember("value", value), JSONMember("from", .string(from))])
    }
    func strings(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
    let registry: JSONValue =
      !flags.registry.isEmpty
      ? setting(strings(flags.registry), "--registry")
      : (env["APX_REGISTRY"].map { !$0.isEmpty } ?? false)
        ? setting(strings(context.registryDirectories([])), "APX_REGISTRY")
        : config.registry != nil
          ? setting(strings(config.registry ?? []), "config")
          : setting(strings(context.registryDirectories([])), "default")
    var environments: [JSONMember] = config.environments.keys.sorted().map {
      JSONMember($0, setting(.string(config.environments[$0] ?? ""), "config"))
    }
    if let name = flags.environment {
      environments = [JSONMember("*", setting(.string(name), "--env"))]
    } else if let name = env["APX_ENV"], !name.isEmpty {
      environments.insert(JSONMember("*", setting(.string(name), "APX_ENV (for APIs that have it)")), at: 0)
    }
    func optional<T>(_ flag: T?, _ flagName: String, _ configured: T?, _ json: (T) -> JSONValue, default: JSONValue)
      -> JSONValue
    {
      if let flag { return setting(json(flag), flagName) }
      if let configured { return setting(json(configured), "config") }
      return setting(`default`, "default")
    }
    let noColor = !(env["NO_COLOR"] ?? "").isEmpty
    let color: JSONValue =
      flags.color != .auto
      ? setting(.string(flags.color.rawValue), "--color")
      : noColor
        ? setting(.string("never"), "NO_COLOR")
        : optional(nil as ColorMode?, "", config.color, { .string($0.rawValue) }, default: .string("auto"))
    let retry: JSONValue =
      flags.noRetry
      ? setting(.number("1"), "--no-retry")
      : optional(flags.retry, "--retry", config.retry, { .number("\($0)") }, default: .string("the registry's policy"))
    let settings: [JSONMember] = [
      JSONMember("registry", registry),
      JSONMember("environments", .object(environments)),
      JSONMember(
        "output",
        optional(
          flags.output, "-o", config.output, { .string($0.rawValue) },
          default: .string("json (pretty on a terminal, compact when piped)"))),
      JSONMember("color", color),
      JSONMember(
        "timeout",
        optional(flags.timeout, "--timeout", config.timeout, { .number(NumberText.plain($0)) }, default: .null)),
      JSONMember("retry", retry),
      JSONMember("proxy", proxySetting(flags, config: config, environment: env)),
      JSONMember(
        "noproxy",
        flags.noproxy.map { setting(.string($0), "--noproxy") }
          ?? Self.variable("NO_PROXY", in: env).map { setting(.string($0.value), $0.name) }
          ?? optional(nil as String?, "", config.noproxy, JSONValue.string, default: .null)),
    ]
    let report = JSONValue.object([
      JSONMember("config_file", context.configPath.map(JSONValue.string) ?? .null),
      JSONMember("state_folder", UserDirectories.stateDirectory(environment: env).map(JSONValue.string) ?? .null),
      JSONMember("settings", .object(settings)),
    ])
    try ValuePrinter.print(report, global: global, context: context)
  }

  /// The proxy setting and where it comes from, its password masked (`ProxyServer.display`).
  private func proxySetting(_ flags: GlobalOptions, config: ConfigFile, environment: [String: String]) -> JSONValue {
    func shown(_ text: String) -> JSONValue {
      if text.trimmingWhitespace().isEmpty { return .null }
      return .string((try? ProxyServer(url: text, source: "")).map(\.display) ?? "(not a usable proxy URL)")
    }
    func setting(_ value: JSONValue, _ from: String) -> JSONValue {
      .object([JSONMember("value", value), JSONMember("from", .string(from))])
    }
    if let flag = flags.proxy { return setting(shown(flag), "--proxy") }
    let found = ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY"].compactMap { Self.variable($0, in: environment) }
    if !found.isEmpty {
      return .object(found.map { JSONMember($0.name, setting(shown($0.value), $0.name)) })
    }
    if let configured = config.proxy { return setting(shown(configured), "config") }
    return setting(.null, "default")
  }

  /// A proxy variable as curl reads it: the lower-case name first, then the upper-case one.
  static func variable(_ name: String, in environment: [String: String]) -> (name: String, value: String)? {
    for candidate in [name.lowercased(), name] {
      if let value = environment[candidate], !value.isEmpty { return (candidate, value) }
    }
    return nil
  }

  /// The first flag given that the report has no line for, or nil.
  static func unreported(_ flags: GlobalOptions) -> String? {
    let checks: [(Bool, String)] = [
      (flags.baseURL != nil, "--base-url"), (flags.demo, "--demo"), (!flags.headers.isEmpty, "-H"),
      (flags.connectTimeout != ConnectionOptions.defaultConnectTimeout, "--connect-timeout"), (flags.verbose, "-v"),
      (flags.insecure, "--insecure"), (flags.cacert != nil, "--cacert"), (flags.cert != nil, "--cert"),
      (flags.key != nil, "--key"), (flags.authority != nil, "--authority"),
      (flags.maxMessageSize != nil, "--max-message-size"), (flags.emitDefaults, "--emit-defaults"),
      (flags.http1Only, "--http1.1"),
    ]
    return checks.first { $0.0 }?.1
  }
}
