import APXCore
import APXRuntime
public import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Options every command that calls or inspects endpoints accepts, in the groups `--help`
/// shows under their own headings. A command that needs only some takes only those groups
/// (`apx validate`: `RegistryOptions`), so its help lists only what it uses.
struct GlobalOptions: ParsableArguments {
  @OptionGroup(title: "Registry options") var registryOptions: RegistryOptions
  @OptionGroup(title: "Registry options") var targetOptions: TargetOptions
  @OptionGroup(title: "Output options") var outputOptions: OutputOptions
  @OptionGroup(title: "Connection options") var connectionOptions: ConnectionOptions
  @OptionGroup(title: "gRPC options") var grpcOptions: GRPCOptions

  var registry: [String] { registryOptions.registry }
  var environment: String? { targetOptions.environment }
  var baseURL: String? { targetOptions.baseURL }
  var demo: Bool { targetOptions.demo }
  var output: OutputFormat? { outputOptions.output }
  var select: String? { outputOptions.select }
  var rawOutput: Bool { outputOptions.rawOutput }
  var color: ColorMode { outputOptions.color }
  var headers: [String] { connectionOptions.headers }
  var timeout: Double? { connectionOptions.timeout }
  var connectTimeout: Double { connectionOptions.connectTimeout }
  var retry: Int? { connectionOptions.retry }
  var noRetry: Bool { connectionOptions.noRetry }
  var verbose: Bool { connectionOptions.verbose }
  var insecure: Bool { connectionOptions.insecure }
  var cacert: String? { connectionOptions.cacert }
  var cert: String? { grpcOptions.cert }
  var key: String? { grpcOptions.key }
  var authority: String? { grpcOptions.authority }
  var maxMessageSize: Int? { grpcOptions.maxMessageSize }
  var emitDefaults: Bool { grpcOptions.emitDefaults }

  func validate() throws {
    if let problem = values.problem { throw ValidationError(problem) }
  }

  /// The parsed flags as plain data (what the commands and the fast path share).
  var values: GlobalValues {
    GlobalValues(
      registry: registry, environment: environment, baseURL: baseURL, demo: demo, output: output, select: select,
      rawOutput: rawOutput, headers: headers, timeout: timeout, connectTimeout: connectTimeout, retry: retry,
      noRetry: noRetry,
      verbose: verbose, color: color, insecure: insecure, cacert: cacert, cert: cert, key: key,
      authority: authority, maxMessageSize: maxMessageSize, emitDefaults: emitDefaults)
  }

  /// `-H` values as header fields.
  var headerFields: [HeaderField] { values.headerFields }

  /// The gRPC flags as runtime settings.
  func grpcSettings(_ environment: [String: String]) -> GRPCSettings { values.grpcSettings(environment) }

  /// The HTTP transport flags as session options (see `GlobalValues.sessionOptions`).
  func sessionOptions(_ environment: [String: String]) -> HTTPSessionOptions { values.sessionOptions(environment) }
}

extension OutputFormat: ExpressibleByArgument {}

extension ColorMode: ExpressibleByArgument {}
