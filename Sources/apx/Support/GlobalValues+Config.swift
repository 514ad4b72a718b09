import APXCore

extension GlobalValues {
  /// These flags with the config file's defaults filled in where no flag (or environment
  /// variable) chose: flags, then environment variables, then the file, then built-in defaults.
  /// Exit 3 when the config file is invalid.
  func applyingConfig(_ context: Context) throws(APXError) -> GlobalValues {
    let config = try context.configResult.get()
    var values = self
    values.output = output ?? config.output
    values.timeout = timeout ?? config.timeout
    if retry == nil, !noRetry { values.retry = config.retry }
    // NO_COLOR is an environment variable, so it outranks the file (under --color auto).
    if color == .auto, let configured = config.color, (context.environment["NO_COLOR"] ?? "").isEmpty {
      values.color = configured
    }
    if let problem = values.problem {
      throw APXError(.invalidDefinition, "\(context.configPath ?? "config"): \(problem)")
    }
    return values
  }
}

extension Context {
  /// The environment the config file names for `api`, if any (an invalid file names none:
  /// `applyingConfig` reports it).
  func configuredEnvironment(for api: String) -> String? {
    guard case .success(let config) = configResult else { return nil }
    return config.environments[api]
  }
}
