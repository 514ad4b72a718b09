import APXCore

/// Where a gRPC schema's files were named. It decides where their relative paths start and
/// how a file that cannot be used is reported.
public enum SchemaOrigin: Sendable, Equatable {
  /// A registry endpoint's `schema`: paths start at the registry file's folder, and a schema
  /// file that cannot be used makes the registry invalid (exit 3, reported against the file).
  case registryFile(String)
  /// The command line (`--protoset`, `--proto`, `--import-path`, or `apx import grpc FILE`):
  /// paths start at `folder` (nil: the current folder), and a file that cannot be used is a
  /// usage error (exit 2).
  case commandLine(folder: String?)

  /// The origin of a call's schema: the registry file of its API, or the command line for a
  /// call to a URL (`apx call grpc://...`, whose API is made on the spot).
  static func of(_ request: CallRequest) -> SchemaOrigin {
    // The folder stays unasked until a file needs it: reflection needs none, and asking for it
    // started FileManager, which an ad-hoc call by reflection otherwise never does.
    request.targetIsURL ? .commandLine(folder: nil) : .registryFile(request.api.sourceFile)
  }

  /// The folder relative paths start at (absolute).
  var folder: String {
    switch self {
    case .registryFile(let file): SchemaPaths.folder(of: file)
    case .commandLine(let folder): SchemaPaths.resolve(folder ?? ".", against: SchemaPaths.currentFolder)
    }
  }

  /// The file to report a problem against: the registry's, none for the command line.
  var file: String? {
    if case .registryFile(let file) = self { return file }
    return nil
  }

  /// The exit status of a schema file that cannot be used.
  var status: ExitStatus {
    if case .registryFile = self { return .invalidDefinition }
    return .usage
  }

  /// Where relative paths start, said for a hint.
  var pathRule: String {
    switch self {
    case .registryFile(let file): "paths in \"schema\" are relative to the folder of \(file)"
    case .commandLine: "check the path (relative paths start at the current folder)"
    }
  }
}
