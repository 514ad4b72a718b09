import APXCore

extension GlobalOptions {
  /// These flags with the config file's defaults filled in where no flag (or environment
  /// variable) chose: flags, then environment variables, then the file, then built-in defaults.
  /// Exit 3 when the config file is invalid.
  func applyingConfig(_ context: Context) throws(APXError) -> GlobalOptions {
    let config = try context.configResult.get()
    var values = self
    values.outputOptions = outputOptions.filled(from: config, environment: context.environment)
    values.connectionOptions.timeout = self.timeout ?? config.timeout
    if self.retry == nil, !self.noRetry { values.connectionOptions.retry = config.retry }
    (values.proxyOptions.proxy, values.proxyOptions.noproxy) = try ProxyChoice.filled(
      proxy: self.proxy, noproxy: self.noproxy, context: context)
    if let problem = values.problem {
      throw APXError(.invalidDefinition, "\(context.configPath ?? "config"): \(problem)")
    }
    return values
  }
}

extension OutputOptions {
  /// The output flags with the config file's `output` and `color` filled in where no flag chose
  /// (see `GlobalOptions.applyingConfig`); for a command that takes only this group.
  func applyingConfig(_ context: Context) throws(APXError) -> OutputOptions {
    let values = filled(from: try context.configResult.get(), environment: context.environment)
    if let problem = values.problem {
      throw APXError(.invalidDefinition, "\(context.configPath ?? "config"): \(problem)")
    }
    return values
  }

  /// `output` and `color` from `config` where no flag chose (unchecked).
  fileprivate func filled(from config: ConfigFile, environment: [String: String]) -> OutputOptions {
    var values = self
    values.output = output ?? config.output
    // NO_COLOR is an environment variable, so it outranks the file (under --color auto).
    if color == .auto, let configured = config.color, (environment["NO_COLOR"] ?? "").isEmpty {
      values.color = configured
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
