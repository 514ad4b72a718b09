import APXCore
import APXRuntime

/// The registry as completion sees it: names only, read by skimming.
///
/// Completion runs on every TAB, so nothing here loads or checks a registry file: each read is a
/// JSON parse that skims over the endpoints (`JSONParser.parse(_:skimming:keeping:)`, as ad-hoc
/// calls do to match base URLs) and builds at most the one endpoint asked about. A file that
/// cannot be read or parsed offers nothing: completion never prints an error into the user's
/// line (`apx validate` is where a broken file is reported).
struct CompletionRegistry {
  let files: RegistryFiles

  /// The registry the command line names: its `--registry` flags, else `APX_REGISTRY`, the
  /// config file or the default folders, exactly as a command would choose.
  /// ArgumentParser calls completion functions statically, before any command runs, so this
  /// reads the process's environment and config itself.
  init(line: CompletionLine, context: Context = Context()) {
    files = RegistryFiles(directories: context.registryDirectories(line.values(of: "--registry")))
  }

  /// Every API name, in registry order (a folder listing; no file is read).
  var apiNames: [String] { files.list().map(\.api) }

  /// The endpoint names of `api`.
  func endpointNames(of api: String) -> [String] {
    document(api, keeping: [])?["endpoints"]?.objectMembers?.map(\.key) ?? []
  }

  /// The environment names of `api`.
  func environmentNames(of api: String) -> [String] {
    document(api, keeping: [])?["environments"]?.objectMembers?.map(\.key) ?? []
  }

  /// The declared parameters of `api.endpoint`: name and whether it is a `file` parameter.
  func parameters(of api: String, endpoint: String) -> [(name: String, isFile: Bool)] {
    let params = document(api, keeping: [endpoint])?["endpoints"]?[endpoint]?["params"]?.objectMembers ?? []
    return params.map { ($0.key, $0.value["type"]?.stringValue == "file") }
  }

  private func document(_ api: String, keeping kept: Set<String>) -> JSONValue? {
    guard let path = files.list().first(where: { $0.api == api })?.path,
      let bytes = try? FileBytes.read(path)
    else { return nil }
    return try? JSONParser.parse(bytes, skimming: "endpoints", keeping: kept)
  }
}
