public import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The files a registry names — gRPC endpoints' protosets, .proto files and
/// import folders — checked before anything is sent: a registry copied without
/// them loads, so without this check a recipe would fail at its first gRPC
/// step, after its earlier steps had already created things. Paths are
/// resolved as the schema loader resolves them (against the registry file's folder).
public enum RegistryFileReferences {
  /// One error (exit 3) per missing or unreadable file of the endpoints of `api`
  /// named in `endpoints` (nil: every endpoint).
  public static func problems(in api: APIDefinition, endpoints: Set<String>? = nil) -> [APXError] {
    var errors: [APXError] = []
    let origin = SchemaOrigin.registryFile(api.sourceFile)
    for endpoint in api.endpoints where endpoints?.contains(endpoint.name) ?? true {
      guard let schema = endpoint.grpc?.schema else { continue }
      func missing(_ what: String, _ path: String) {
        errors.append(
          APXError(
            .invalidDefinition, "\(api.name).\(endpoint.name): cannot read the \(what) \(path)",
            hint: origin.pathRule + "; copy it along with the registry, or fix the path", file: api.sourceFile,
            location: endpoint.location, path: ".endpoints[\"\(endpoint.name)\"].schema"))
      }
      switch schema {
      case .reflection:
        continue
      case .protoset(let path):
        let absolute = SchemaPaths.resolve(path, against: origin.folder)
        if !readableFile(absolute) { missing("protoset", absolute) }
      case .protoFiles(let files, let importPaths):
        for file in files {
          let absolute = SchemaPaths.resolve(file, against: origin.folder)
          if !readableFile(absolute) { missing(".proto file", absolute) }
        }
        for folder in importPaths {
          let absolute = SchemaPaths.resolve(folder, against: origin.folder)
          if FileKind.isDirectory(absolute) != true { missing("import folder", absolute) }
        }
      }
    }
    return errors
  }

  /// True for a readable file that is not a folder.
  static func readableFile(_ path: String) -> Bool {
    FileKind.isDirectory(path) == false && FileManager.default.isReadableFile(atPath: path)
  }
}
