import APXCore
import APXRuntime
import Foundation

/// Shell completion of `API.ENDPOINT` words, read live from the registry so
/// completions follow the user's own registry files.
enum EndpointCompletion {
  @Sendable static func complete(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
    let context = Context.shared
    var flags: [String] = []
    var i = 0
    while i < words.count {
      if words[i] == "--registry", i + 1 < words.count { flags.append(words[i + 1]) }
      i += 1
    }
    let registry = RegistryFiles(directories: context.registryDirectories(flags))
    var out: [String] = []
    for (api, path) in registry.list() {
      guard let definition = try? RegistryFiles.load(path: path) else { continue }
      for e in definition.endpoints {
        let name = api + "." + e.name
        if name.hasPrefix(prefix) { out.append(name) }
      }
    }
    return out
  }
}
