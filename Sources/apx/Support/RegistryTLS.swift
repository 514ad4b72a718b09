import APXCore

/// Which registry `tls` block a command's connections use.
enum RegistryTLS {
  /// The block of `api` in `environment`, when `baseURL` is a TLS address (https, wss, grpcs):
  /// the files are for TLS connections, so `--demo` or `--base-url http://...` leave them out.
  static func files(api: APIDefinition, environment: String?, baseURL: String) -> TLSFiles? {
    let scheme = baseURL.prefix { $0 != ":" }.lowercased()
    guard ["https", "wss", "grpcs"].contains(scheme) else { return nil }
    return api.tlsFiles(environment: environment)
  }

  /// The one block the targets share (a command has one HTTP session and one gRPC session); exit 2
  /// when two APIs of a run name different files.
  static func one(of targets: [(api: APIDefinition, environment: String, baseURL: String)]) throws(APXError)
    -> TLSFiles?
  {
    var chosen: (api: String, files: TLSFiles)?
    for target in targets {
      guard let files = files(api: target.api, environment: target.environment, baseURL: target.baseURL) else {
        continue
      }
      if let chosen, chosen.files != files {
        throw APXError(
          .usage,
          "the APIs \(chosen.api) and \(target.api.name) name different TLS files, and one run uses one TLS setup",
          hint: "give both APIs the same \"tls\" block, or pass --cacert, --cert and --key for the run")
      }
      chosen = (target.api.name, files)
    }
    return chosen?.files
  }
}
