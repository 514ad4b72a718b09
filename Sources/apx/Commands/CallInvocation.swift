import APXCore
import APXRuntime
import Foundation

/// One `apx call`, as plain data: filled by ArgumentParser (`CallCommand`) or
/// by the fast path (`FastCallArguments`), then run the same way.
struct CallInvocation: Equatable {
  var global = GlobalValues()
  /// API.ENDPOINT.
  var target = ""
  /// name=value, name:=json, name=@file, name=@-.path.
  var params: [String] = []
  /// `-d`: JSON text, @file or @-.
  var data: String?
  var maxEvents: Int?
  var tokenStdin = false

  /// Why these arguments cannot be used together (besides the global flags), or nil.
  var problem: String? {
    if let n = maxEvents, n < 1 { return "--max-events must be at least 1" }
    if tokenStdin, data == "@-" || params.contains(where: { $0.contains("=@-") }) {
      return "--token-stdin reads stdin, so the body or a parameter cannot come from stdin too"
    }
    return nil
  }

  /// Resolves the endpoint, binds the parameters, and runs the call with output on stdout.
  func run() async throws {
    let context = Context.shared
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let target = try CallTarget.resolve(self.target, registry: registry)
    let tokenOverride = tokenStdin ? try Self.readTokenFromStdin() : nil
    let arguments = try params.map { text throws(APXError) in try ParamArgument(parsing: text) }
    var stdinReader = StdinDocument()
    let values = try ArgumentReader.bind(arguments, endpoint: target.endpoint, stdin: &stdinReader)
    let body = try data.map { text throws(APXError) in try ArgumentReader.dataBody(text) }
    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    let global = self.global

    try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let resolved = try BaseURLResolver.resolve(
        api: target.api, environment: global.environment, override: global.baseURL, demo: demo,
        processEnvironment: context.environment)
      let request = CallRequest(
        api: target.api, endpoint: target.endpoint, baseURL: resolved.baseURL,
        environmentName: resolved.environmentName,
        values: values, data: body, headers: global.headerFields, timeout: global.timeout, maxEvents: maxEvents,
        maxAttemptsOverride: global.noRetry ? 1 : global.retry)
      let printer = CallPrinter(context: context, settings: try OutputSettings.make(global, context: context))
      try await HTTPSession.with(
        HTTPSessionOptions(
          connectTimeout: global.connectTimeout, insecure: global.insecure, caCertificatePath: global.cacert)
      ) { session in
        // One token manager per run: concurrent calls share one refresh; the store persists tokens.
        let tokens = TokenManager(
          session: session, environment: context.environment,
          store: TokenFileStore.standard(environment: context.environment))
        let executor = Executor(
          session: session, environment: context.environment, tokens: tokens, tokenOverride: tokenOverride)
        _ = try await GRPCSession.with(global.grpcSettings) { try await executor.call(request, sink: printer) }
      }
    }
  }

  /// The token piped in for `--token-stdin` (whitespace trimmed).
  static func readTokenFromStdin() throws -> String {
    let data = FileHandle.standardInput.readDataToEndOfFile()
    let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty else {
      throw APXError(
        .usage, "--token-stdin: stdin was empty",
        hint: "pipe the token in: apx auth token API | apx call --token-stdin ...")
    }
    guard !token.contains(where: \.isNewline) else {
      throw APXError(.usage, "--token-stdin: stdin holds more than one line", hint: "pipe in the token alone")
    }
    return token
  }
}

/// Builds the printer's settings from the global flags and the terminal.
enum OutputSettings {
  static func make(_ global: GlobalValues, context: Context) throws -> CallPrinter.Settings {
    let color = context.useColor(global.color, terminal: context.stdoutIsTerminal) && global.output != .raw
    return CallPrinter.Settings(
      format: global.output,
      select: try global.select.map { text throws(APXError) in try JSONPath(parsing: text) },
      pretty: context.stdoutIsTerminal || global.output == .json,
      colors: color ? .default : nil,
      verbose: global.verbose,
      stderrColors: context.useColor(global.color, terminal: context.stderrIsTerminal))
  }
}
