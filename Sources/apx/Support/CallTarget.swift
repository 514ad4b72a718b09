import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `API.ENDPOINT` resolved against the registry.
struct CallTarget {
  let api: APIDefinition
  let endpoint: Endpoint

  /// Splits at the first dot (endpoint names may contain dots) and loads the API file.
  static func resolve(_ text: String, registry: RegistryFiles) throws -> CallTarget {
    guard let dot = text.firstIndex(of: "."), dot != text.startIndex, text.index(after: dot) != text.endIndex else {
      throw APXError(
        .usage, "\"\(text)\" is not API.ENDPOINT",
        hint: "e.g. apx call books.imports.status job_id=...; `apx list` shows them")
    }
    let apiName = String(text[..<dot])
    let endpointName = String(text[text.index(after: dot)...])
    let api = try registry.load(api: apiName, endpoint: endpointName)
    guard let endpoint = api.endpoint(named: endpointName) else {
      let names = api.endpointNames
      throw APXError(
        .usage, "the API \"\(apiName)\" has no endpoint \"\(endpointName)\"",
        hint: Suggestions.hint(for: endpointName, in: names.map { "\(apiName).\($0)" })
          ?? Suggestions.hint(for: "\(apiName).\(endpointName)", in: names.map { "\(apiName).\($0)" })
          ?? "its endpoints: \(Suggestions.list(names)) (see `apx list \(apiName)`)")
    }
    return CallTarget(api: api, endpoint: endpoint)
  }
}
