import APXCore
import APXRuntime
import ArgumentParser
import Foundation

/// `apx call API.ENDPOINT [name=value | name:=json | name=@file ...]`
struct CallCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "call",
    abstract: "Call one endpoint from the registry and print the result as JSON.",
    discussion: """
      Parameters:
        name=text        a value (converted to the parameter's type)
        name:=json       a raw JSON value: count:=3  tags:='["a","b"]'
        name=@path       a file (streamed when the parameter is a file; else its text)
        name:=@path      a JSON value read from a file
        name=@-.path     the value at a jq-style path of the JSON document on stdin:
                         apx call books.imports.create csv=@b.csv | apx call books.imports.status job_id=@-.job_id
      REST prints the response body; SSE and gRPC streams print one JSON object per line.
      """
  )

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp("The endpoint, API.ENDPOINT (see `apx list`).", valueName: "API.ENDPOINT"),
    completion: .custom(EndpointCompletion.complete))
  var target: String

  @Argument(help: ArgumentHelp("Parameters: name=value, name:=json, name=@file, name=@-.path.", valueName: "PARAM"))
  var params: [String] = []

  @Option(
    name: [.short, .customLong("data")],
    help: ArgumentHelp("The request body: JSON text, @file or @- for stdin.", valueName: "BODY"))
  var data: String?

  @Option(
    name: .customLong("max-events"),
    help: ArgumentHelp("Stop a stream after this many events or messages.", valueName: "N"))
  var maxEvents: Int?

  @Flag(
    name: .customLong("token-stdin"), help: "Read a bearer token from stdin and use it instead of the registry's auth.")
  var tokenStdin = false

  func validate() throws {
    if let n = maxEvents, n < 1 { throw ValidationError("--max-events must be at least 1") }
    if tokenStdin, data == "@-" || params.contains(where: { $0.contains("=@-") }) {
      throw ValidationError("--token-stdin reads stdin, so the body or a parameter cannot come from stdin too")
    }
  }

  /// The token piped in for `--token-stdin` (whitespace trimmed).
  func readTokenFromStdin() throws -> String {
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

  func run() async throws {
    let context = Context.shared
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let target = try CallTarget.resolve(self.target, registry: registry)
    let tokenOverride = tokenStdin ? try readTokenFromStdin() : nil
    let arguments = try params.map { text throws(APXError) in try ParamArgument(parsing: text) }
    var stdinReader = StdinDocument()
    let values = try ArgumentReader.bind(arguments, endpoint: target.endpoint, stdin: &stdinReader)
    let body = try data.map { text throws(APXError) in try ArgumentReader.dataBody(text) }
    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }

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
}

/// Builds the printer's settings from the global flags and the terminal.
enum OutputSettings {
  static func make(_ global: GlobalOptions, context: Context) throws -> CallPrinter.Settings {
    let color = context.useColor(global.color, terminal: context.stdoutIsTerminal) && global.format != .raw
    return CallPrinter.Settings(
      format: global.output,
      select: try global.select.map { text throws(APXError) in try JSONPath(parsing: text) },
      pretty: context.stdoutIsTerminal || global.output == .json,
      colors: color ? .default : nil,
      verbose: global.verbose,
      stderrColors: context.useColor(global.color, terminal: context.stderrIsTerminal))
  }
}

extension GlobalOptions {
  var format: OutputFormat? { output }
}
