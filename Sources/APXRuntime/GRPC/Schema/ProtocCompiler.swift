import APXCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// Compiles .proto files into a protoset with `protoc`
/// (`--include_imports --descriptor_set_out`), for endpoints whose schema is
/// `{"proto": [...]}`. Uses `$APX_PROTOC`, else `protoc` on PATH, else
/// Python's grpcio-tools (`python3 -m grpc_tools.protoc`, with its bundled
/// well-known .proto files on the import path). `package`: the tests ask it whether a
/// compiler is installed (Tests/APXTestSupport), so they look where apx looks.
package struct ProtocCompiler {
  /// The process environment (PATH, APX_PROTOC).
  let environment: [String: String]

  package init(environment: [String: String]) {
    self.environment = environment
  }

  /// The protoset bytes for `files`, with `importPaths` as `-I` folders.
  /// Relative paths are resolved against `origin`'s folder.
  func compile(files: [String], importPaths: [String], origin: SchemaOrigin) async throws -> [UInt8] {
    let baseDirectory = origin.folder
    let absoluteFiles = files.map { SchemaPaths.resolve($0, against: baseDirectory) }
    for file in absoluteFiles where !FileManager.default.isReadableFile(atPath: file) {
      throw APXError(origin.status, "cannot read the .proto file \(file)", hint: origin.pathRule, file: origin.file)
    }
    var includes = importPaths.map { SchemaPaths.resolve($0, against: baseDirectory) }
    if includes.isEmpty {
      // Without import paths, each file's own folder: enough for files that import only each other.
      for file in absoluteFiles {
        let folder = FilePath(file).removingLastComponent().string
        if !includes.contains(folder) { includes.append(folder) }
      }
    }
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("apx-\(UUID().uuidString).protoset").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    let arguments =
      ["--include_imports", "--descriptor_set_out=\(output)"] + includes.map { "-I\($0)" } + absoluteFiles
    guard let (executable, prefix) = await findCompiler() else {
      throw APXError(
        .usage, "compiling .proto files needs protoc, which is not installed",
        hint:
          "install it (`apt-get install protobuf-compiler`, `brew install protobuf`, or `pip install grpcio-tools`), "
          + "set APX_PROTOC to its path, or give the endpoint a protoset: {\"protoset\": \"FILE.protoset\"}")
    }
    let result = try await run(executable, prefix + arguments)
    guard result.status == 0, let bytes = FileManager.default.contents(atPath: output) else {
      let hint =
        switch origin {
        case .registryFile(let file): "fix the .proto files or the \"import_paths\" of the endpoint's schema in \(file)"
        case .commandLine: "fix the .proto files, or give the folders their imports are in with --import-path DIR"
        }
      throw APXError(
        origin.status, "protoc could not compile \(files.joined(separator: ", "))", hint: hint, file: origin.file,
        cause: result.stderr.trimmingWhitespaceAndNewlines())
    }
    return [UInt8](bytes)
  }

  /// The compiler to run and the arguments that precede protoc's own.
  package func findCompiler() async -> (String, [String])? {
    if let explicit = environment["APX_PROTOC"], !explicit.isEmpty { return (explicit, []) }
    if let protoc = which("protoc") { return (protoc, []) }
    guard let python = which("python3") ?? which("python") else { return nil }
    // grpcio-tools carries protoc and the well-known .proto files; the latter must be passed with -I.
    let script = """
      import os, sys
      try:
          import grpc_tools
          from grpc_tools import protoc
      except ImportError:
          sys.exit(127)
      include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
      sys.exit(protoc.main(["protoc", "-I" + include] + sys.argv[1:]))
      """
    guard (try? await run(python, ["-c", "import grpc_tools.protoc"]))?.status == 0 else { return nil }
    return (python, ["-c", script])
  }

  private func which(_ name: String) -> String? {
    for dir in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs the compiler; its exit status (-1 when a signal ended it) and what it said on stderr.
  private func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
    // protoc prints nothing on stdout and little on stderr; 16 MiB bounds a runaway one.
    let runner = ChildProcessRunner(environment: environment, outputLimit: 16 << 20)
    do {
      let output = try await runner.run(executable, arguments, timeout: 300)
      let status: Int32 = if case .exited(let code) = output.ending { code } else { -1 }
      return (status, String(decoding: output.stderr, as: UTF8.self))
    } catch .cannotStart(let why) {
      throw APXError(.usage, "cannot run \(executable)", hint: "check APX_PROTOC or your PATH", cause: why)
    } catch .tooMuchOutput(let limit) {
      throw APXError(.usage, "\(executable) printed more than \(limit >> 20) MiB", hint: "check APX_PROTOC")
    } catch .timedOut {
      throw APXError(.timeout, "\(executable) did not finish within 300 s and was stopped", hint: "check APX_PROTOC")
    }
  }
}

/// Paths in a registry's `schema` are relative to the registry file's folder.
enum SchemaPaths {
  /// `path` made absolute against `base` (absolute paths are kept).
  static func resolve(_ path: String, against base: String) -> String {
    FilePath(base).pushing(FilePath(path)).lexicallyNormalized().string
  }

  /// The folder holding `file` (absolute).
  static func folder(of file: String) -> String {
    FilePath(currentFolder).pushing(FilePath(file)).removingLastComponent().lexicallyNormalized().string
  }

  /// The process's working folder.
  static var currentFolder: String { FileManager.default.currentDirectoryPath }
}
