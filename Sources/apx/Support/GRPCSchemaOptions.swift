import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The schema flags of `apx call`, `apx describe` and `apx list`, for gRPC URLs: where a
/// gRPC URL's schema comes from when not from server reflection.
struct GRPCSchemaOptions: ParsableArguments {
  @Option(
    name: .customLong("proto"),
    help: ArgumentHelp(
      "gRPC URL: take the schema from this .proto file, compiled with protoc (repeatable).", valueName: "FILE"))
  var protoFiles: [String] = []

  @Option(
    name: .customLong("import-path"),
    help: ArgumentHelp(
      "gRPC URL: a folder protoc searches for --proto files and their imports (repeatable).", valueName: "DIR"))
  var importPaths: [String] = []

  @Option(
    name: .customLong("protoset"),
    help: ArgumentHelp(
      "gRPC URL: take the schema from this FileDescriptorSet (default: server reflection).", valueName: "FILE"))
  var protoset: String?

  func validate() throws {
    if let problem { throw ValidationError(problem) }
  }

  /// Whether any of the three was given.
  var isGiven: Bool { protoset != nil || !protoFiles.isEmpty || !importPaths.isEmpty }

  /// What is wrong with the combination, for a usage error.
  var problem: String? {
    if protoset != nil && !protoFiles.isEmpty { return "--protoset and --proto each give the schema: use one" }
    if !importPaths.isEmpty && protoFiles.isEmpty { return "--import-path goes with --proto FILE" }
    return nil
  }

  /// The schema source: `--protoset`, `--proto`, else server reflection. Paths are made
  /// absolute here (they are relative to the current folder).
  func source() -> SchemaSource {
    // Asked only for a relative path: reflection needs no file, and no FileManager (see DirectoryListing).
    func absolute(_ path: String) -> String {
      path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
    if let protoset { return .protoset(path: absolute(protoset)) }
    if !protoFiles.isEmpty {
      // Without --import-path, protoc searches each file's own folder.
      return .protoFiles(files: protoFiles.map(absolute), importPaths: importPaths.map(absolute))
    }
    return .reflection
  }

  /// Throws a usage error when the flags were given for something that is not a gRPC URL.
  ///
  /// - Parameter what: what was given instead, e.g. "http://a.example/x is http".
  func requireGRPC(_ what: String) throws {
    guard isGiven else { return }
    throw APXError(
      .usage, "--proto, --import-path and --protoset describe gRPC services; \(what)",
      hint: "give them with a gRPC URL: grpc://HOST:PORT[/package.Service/Method]")
  }

  /// The flags as they were given, for a command apx prints: empty, or a space and the
  /// shell words (`--protoset`, then `--proto`s with their `--import-path`s).
  var commandLine: String {
    var words: [String] = []
    if let protoset { words += ["--protoset", protoset] }
    for file in protoFiles { words += ["--proto", file] }
    for folder in importPaths { words += ["--import-path", folder] }
    return words.isEmpty ? "" : " " + ShellWords.line(words)
  }

  /// Where the command line's schema files start (their paths are made absolute by `source()`).
  static let origin = SchemaOrigin.commandLine(folder: nil)
}
