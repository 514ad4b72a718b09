public import APXCore

/// Where a local backend that stands in for every API's environments listens (`--demo`).
public struct DemoAddresses: Sendable {
  /// `http://127.0.0.1:PORT` of its HTTP side.
  public var httpBaseURL: String
  /// The port of its gRPC side (0: none was started).
  public var grpcPort: Int

  public init(httpBaseURL: String, grpcPort: Int) {
    self.httpBaseURL = httpBaseURL
    self.grpcPort = grpcPort
  }
}

/// Decides where a call goes: `--base-url`, else the demo backend under `--demo`,
/// else the chosen environment's base URL (with `${env:NAME}` resolved). The command line,
/// recipes and the explorer share it.
public enum BaseURLResolver {
  /// Where the call goes, and the environment whose name it goes under (for stored tokens).
  public struct Resolved: Sendable {
    public var baseURL: String
    public var environmentName: String

    public init(baseURL: String, environmentName: String) {
      self.baseURL = baseURL
      self.environmentName = environmentName
    }
  }

  /// The environment is `--env`, else `APX_ENV` when the API has it (one variable set for
  /// one API must not break calls to the others), else the config file's choice for this API,
  /// else the API's `default_environment`, else its first.
  ///
  /// - Parameters:
  ///   - environment: `--env`; `override`: `--base-url`; `demo`: the demo backend under `--demo`.
  ///   - configured: the config file's environment for this API.
  public static func resolve(
    api: APIDefinition, environment: String?, override: String?, demo: DemoAddresses?,
    processEnvironment: [String: String], configured: String? = nil
  ) throws -> Resolved {
    let fromVariable = processEnvironment["APX_ENV"].flatMap { api.environment(named: $0) == nil ? nil : $0 }
    let envName =
      environment ?? fromVariable ?? configured ?? api.defaultEnvironment ?? api.environments.first?.name
    var env: NamedEnvironment?
    if let envName {
      env = api.environment(named: envName)
      if env == nil, override == nil, demo == nil {
        throw APXError(
          .usage, "the API \"\(api.name)\" has no environment \"\(envName)\"",
          hint: Suggestions.hint(for: envName, in: api.environments.map(\.name))
            ?? "its environments: \(api.environments.map(\.name).joined(separator: ", "))")
      }
    }
    let name = envName ?? "default"
    if let override {
      return Resolved(baseURL: override.hasSuffix("/") ? String(override.dropLast()) : override, environmentName: name)
    }
    let isGRPC = env.map { $0.baseURL.hasPrefix("grpc") } ?? api.endpoints.contains { !$0.kind.isHTTPRequest }
    if let demo {
      if isGRPC {
        guard demo.grpcPort > 0 else {
          throw APXError(.internalFailure, "the demo backend did not start its gRPC server")
        }
        return Resolved(baseURL: "grpc://127.0.0.1:\(demo.grpcPort)", environmentName: "demo")
      }
      return Resolved(baseURL: demo.httpBaseURL, environmentName: "demo")
    }
    guard let env else {
      throw APXError(
        .invalidDefinition, "the API \"\(api.name)\" defines no environments",
        hint: "add \"environments\" to \(api.sourceFile), or pass --base-url URL",
        file: api.sourceFile)
    }
    var mask = SecretMask()
    let base = try TemplateResolver.resolveText(
      env.baseURL, environment: processEnvironment, mask: &mask, unsetStatus: .usage)
    if let problem = BaseURLCheck.problem(base) {
      throw APXError(
        .usage, "the environment \"\(name)\" of the API \"\(api.name)\" resolves base_url to \(problem)",
        hint: "check \"\(env.baseURL)\" in \(api.sourceFile) and the variables it uses")
    }
    return Resolved(baseURL: base.hasSuffix("/") ? String(base.dropLast()) : base, environmentName: name)
  }
}
