import APXCore
import APXImport
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx import openapi|grpc ...`: write a registry file from what an API publishes.
struct ImportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Write a registry file from an OpenAPI/Swagger description or a gRPC schema.",
    subcommands: [ImportOpenAPICommand.self, ImportGRPCCommand.self, ImportGraphQLCommand.self])
}

/// Where an import writes, shared by both importers.
struct ImportOutputOptions: ParsableArguments {
  @Option(
    name: .customLong("api"),
    help: ArgumentHelp(
      "The API name (letters, digits, '-', '_'): the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default: from the description's info.title, or the gRPC package, else the service).",
      valueName: "NAME"))
  var api: String?

  @Option(
    name: .customLong("out"),
    help: ArgumentHelp("The folder to write NAME.json into.", valueName: "DIR"),
    completion: .directory)
  var out: String = "Endpoints"

  @Flag(name: .customLong("force"), help: "Replace NAME.json when it exists with different content.")
  var force = false

  /// Writes the registry text (after checking that it loads) and prints the summary.
  func write(_ report: ImportReport, source: String, context: Context) throws {
    let file = out + "/" + report.api.name + ".json"
    var api = report.api
    // `$schema` names the registry JSON Schema beside the file (editors validate with it); in a
    // folder without that schema the reference would point at nothing, so it is left out.
    if !FileManager.default.fileExists(atPath: out + "/registry.schema.json") { api.schemaReference = nil }
    let text = RegistryWriter.text(api)
    do {
      _ = try RegistryLoader.load(Array(text.utf8), file: file)
    } catch {
      throw APXError(
        .internalFailure, "the imported registry does not load (a bug in apx import): \(error.description)",
        hint: "please report it with the description you imported")
    }
    let outIsDirectory = FileKind.isDirectory(out)
    if outIsDirectory == nil {
      do {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      } catch {
        throw APXError(.usage, "cannot create the folder \(out): \(FileErrorText.describe(error))")
      }
    } else if outIsDirectory == false {
      throw APXError(.usage, "\(out) is a file, not a folder", hint: "pass a folder to --out")
    }
    let data = Data(text.utf8)
    var state = "written"
    if let existing = FileManager.default.contents(atPath: file) {
      if existing == data {
        state = "unchanged"
      } else if !force {
        throw APXError(
          .usage, "\(file) exists and differs from this import",
          hint: "pass --force to replace it, or --api NAME / --out DIR to write elsewhere")
      } else {
        state = "replaced"
      }
    }
    if state != "unchanged" {
      do {
        try data.write(to: URL(fileURLWithPath: file), options: .atomic)
      } catch {
        throw APXError(.usage, "cannot write \(file): \(FileErrorText.describe(error))")
      }
    }
    Self.summarize(report, file: file, source: source, state: state, context: context)
    let line: JSONValue = .object([
      JSONMember("file", .string(file)), JSONMember("api", .string(report.api.name)),
      JSONMember("endpoints", .int(report.api.endpoints.count)), JSONMember("skipped", .int(report.skipped.count)),
      JSONMember("status", .string(state)),
    ])
    context.stdout.write(line.compactJSON + "\n")
  }

  /// The stderr summary: what was written, what was skipped and why, what to export.
  static func summarize(_ r: ImportReport, file: String, source: String, state: String, context: Context) {
    var lines = [
      "apx: \(r.format) \(source): \(r.api.endpoints.count) endpoint\(r.api.endpoints.count == 1 ? "" : "s") of \(r.operationCount) operation\(r.operationCount == 1 ? "" : "s") -> \(file) (\(state))"
    ]
    if !r.skipped.isEmpty {
      lines.append("apx: skipped \(r.skipped.count):")
      for s in r.skipped { lines.append("  \(s.item): \(s.reason)") }
    }
    for n in r.notes { lines.append("apx: note: \(n)") }
    if !r.api.environments.isEmpty {
      lines.append(
        "apx: environments: "
          + r.api.environments.map { "\($0.name) \($0.baseURL)" }.joined(separator: ", "))
    }
    if !r.environmentVariables.isEmpty {
      lines.append(
        "apx: set these environment variables: "
          + r.environmentVariables.map { "export \($0)=..." }.joined(separator: "; "))
    }
    context.warn(lines.joined(separator: "\n"))
  }
}

/// `apx import openapi SOURCE`.
struct ImportOpenAPICommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "openapi",
    abstract: "Import an OpenAPI 3.0/3.1/3.2 or Swagger 2.0 description (JSON or YAML file, or http(s) URL).",
    discussion: """
      One endpoint per operation, named from its operationId (kebab-case words, '/' '.' ':' become '.'; \
      listPets -> list-pets, repos/get-content -> repos.get-content), else from its path and method \
      (GET /pets/{petId} -> pets.pet-id.get); a repeated name gets -2, -3. Servers become environments, \
      security schemes become auth reading environment variables, operations answering text/event-stream \
      become SSE endpoints. What cannot be imported (unsupported methods, broken references, callbacks, \
      webhooks) is listed on stderr; the rest is written. Importing the same description again gives the \
      same bytes. Stdout gets one JSON line: file, api, endpoints, skipped, status.
      """)

  @Argument(
    help: ArgumentHelp(
      "The description: a .json/.yaml file or an http(s) URL, either of them gzip-compressed or not.",
      valueName: "SOURCE"),
    completion: .file(extensions: ["json", "yaml", "yml", "gz"]))
  var source: String

  @OptionGroup var output: ImportOutputOptions

  @Flag(
    name: .customLong("allow-remote-refs"),
    help: "Follow $refs into http(s) URLs from a local file (a description fetched from a URL always may).")
  var allowRemoteRefs = false

  @OptionGroup(title: "Fetching") var fetch: FetchOptions

  func validate() throws {
    let lower = source.lowercased()
    let isURL = lower.hasPrefix("http://") || lower.hasPrefix("https://")
    try fetch.refuse(
      unless: isURL || allowRemoteRefs, only: "an http(s) URL SOURCE, or $refs followed with --allow-remote-refs")
  }

  func run(in context: Context) async throws {
    let mask = Self.sourceMask(source)
    do {
      try await run(shown: mask.mask(source), in: context)
    } catch let error as APXError {
      throw RecipeSecrets.masked(error, with: mask)
    }
  }

  /// The credentials a description's URL carries (`?access_token=...`, `user:password@`), which
  /// follow the rule of a call's: masked wherever the source is named.
  static func sourceMask(_ source: String) -> SecretMask {
    var mask = SecretMask(secrets: CredentialParams.values(inURL: source))
    if let info = URLUserInfo.range(in: source), let colon = source[info].firstIndex(of: ":") {
      mask.add(String(source[source.index(after: colon)..<info.upperBound]))
    }
    return mask
  }

  /// The import, with `shown` (the source, credentials masked) wherever the source is named.
  func run(shown: String, in context: Context) async throws {
    fetch.warnIfInsecure(context)
    let report = try await Self.importReport(
      source: source, shown: shown, apiName: output.api, timeout: fetch.timeout(default: 30),
      session: try fetch.httpSession(context), allowRemoteRefs: allowRemoteRefs)
    try output.write(report, source: shown, context: context)
  }

  /// Reads a description from a file or an http(s) URL (gzip-compressed or not), with the files
  /// its `$ref`s reach, and imports it; `apx mock --openapi` serves what this returns.
  static func importReport(
    source: String, shown: String, apiName: String?, timeout: Double, session: HTTPSessionOptions,
    allowRemoteRefs: Bool
  ) async throws -> ImportReport {
    let bytes: [UInt8]
    let location: DocumentLocation
    var sourceURL: String?
    if DescriptionFiles.isURL(source) {
      let fetched = try await DescriptionFiles.fetch(source, shown: shown, timeout: timeout, session: session)
      bytes = fetched.bytes
      sourceURL = fetched.finalURL
      location = .url(fetched.finalURL)
    } else {
      bytes = try DescriptionFiles.readFile(source, shown: shown)
      location = .file(source, in: FileManager.default.currentDirectoryPath)
    }
    let set = try await DescriptionSet.load(
      rootBytes: bytes, location: location, shown: shown, allowRemote: allowRemoteRefs
    ) { (target: DocumentLocation) async throws(APXError) -> [UInt8] in
      switch target {
      case .file(let path): return try DescriptionFiles.readFile(path, shown: path)
      case .url(let url):
        do {
          return try await DescriptionFiles.fetch(url, shown: url, timeout: timeout, session: session).bytes
        } catch let error as APXError {
          throw error
        } catch {
          throw APXError(.network, "cannot fetch \(url): \(error)")
        }
      }
    }
    return try OpenAPIImporter.importDescription(
      set, options: OpenAPIImporter.Options(apiName: apiName, sourceURL: sourceURL))
  }
}

/// The I/O of reading a description's files: local files and http(s) URLs, gzip-compressed
/// or not (recognised by their first bytes, not by their names).
enum DescriptionFiles {
  static func isURL(_ source: String) -> Bool {
    let lower = source.lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }

  static func readFile(_ path: String, shown: String) throws(APXError) -> [UInt8] {
    try inflated(try FileBytes.read(path), shown: shown)
  }

  static func fetch(_ url: String, shown: String, timeout: Double, session: HTTPSessionOptions) async throws
    -> (bytes: [UInt8], finalURL: String)
  {
    let fetched = try await DocumentFetcher.fetch(
      url, options: session, timeout: timeout, maxBytes: DescriptionReader.maxBytes)
    return (try inflated(fetched.bytes, shown: shown), fetched.finalURL)
  }

  static func inflated(_ bytes: [UInt8], shown: String) throws(APXError) -> [UInt8] {
    GzipFile.isCompressed(bytes)
      ? try GzipFile.inflate(bytes, source: shown, maxBytes: DescriptionReader.maxBytes) : bytes
  }
}

/// `apx import grpc TARGET`.
struct ImportGRPCCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "grpc",
    abstract: "Import the services of a gRPC server (reflection), a .proto file or a .protoset.",
    discussion: """
      TARGET is grpc://HOST:PORT or grpcs://HOST:PORT (server reflection; the address becomes the default \
      environment), a .proto file (compiled with protoc; see --import-path) or a .protoset file. One endpoint \
      per method, named from the method (create-lesson), prefixed with the service when there are several \
      (class-notes-api.create-lesson). The schema stays where it is: the registry refers to the server's \
      reflection or to the file, relative to --out.
      """)

  @Argument(
    help: ArgumentHelp("grpc://HOST:PORT, grpcs://HOST:PORT, FILE.proto or FILE.protoset.", valueName: "TARGET"))
  var target: String

  @OptionGroup var output: ImportOutputOptions

  @Option(
    name: [.customShort("I"), .customLong("import-path")],
    help: ArgumentHelp("With a .proto TARGET: a folder protoc searches for imports (repeatable).", valueName: "DIR"),
    completion: .directory)
  var importPaths: [String] = []

  @OptionGroup(title: "Fetching") var fetch: FetchOptions

  func validate() throws {
    let lower = target.lowercased()
    let isAddress = lower.hasPrefix("grpc://") || lower.hasPrefix("grpcs://")
    if !isAddress, !lower.hasSuffix(".proto"), !lower.hasSuffix(".protoset") {
      throw ValidationError("TARGET must be grpc://HOST:PORT, grpcs://HOST:PORT, a .proto or a .protoset file")
    }
    if !importPaths.isEmpty, !lower.hasSuffix(".proto") {
      throw ValidationError("--import-path applies only to a .proto TARGET")
    }
    try fetch.refuse(unless: isAddress, only: "a grpc:// or grpcs:// TARGET")
    try fetch.refuse(["--insecure", "--cacert"], unless: lower.hasPrefix("grpcs://"), only: "a grpcs:// TARGET")
  }

  func run(in context: Context) async throws {
    let lower = target.lowercased()
    let summaries: [GRPCMethodSummary]
    let schema: SchemaSource
    var baseURL: String?
    if lower.hasPrefix("grpc://") || lower.hasPrefix("grpcs://") {
      fetch.warnIfInsecure(context)
      summaries = try await GRPCInspector.listServices(
        at: target, settings: try fetch.grpcSettings(context), timeout: fetch.timeout(default: 10))
      schema = .reflection
      baseURL = target.hasSuffix("/") ? String(target.dropLast()) : target
    } else {
      guard FileManager.default.fileExists(atPath: target) else {
        throw APXError(.usage, "\(target) does not exist", hint: "check the path")
      }
      let relative = RelativePath.from(folder: output.out, to: target)
      if lower.hasSuffix(".protoset") {
        schema = .protoset(path: relative)
      } else {
        schema = .protoFiles(
          files: [relative], importPaths: importPaths.map { RelativePath.from(folder: output.out, to: $0) })
      }
      // The paths are written relative to the output folder; a file that cannot be used is the
      // command line's problem (exit 2), not the registry's, which does not exist yet.
      summaries = try await GRPCInspector.listMethods(
        schema: schema, origin: .commandLine(folder: output.out), environment: context.environment)
    }
    let methods = summaries.map {
      GRPCImporter.Method(
        service: $0.service, method: $0.method, shape: $0.shape, requestType: $0.requestType,
        responseType: $0.responseType, requestTemplate: $0.requestTemplate)
    }
    let report = try GRPCImporter.importMethods(
      methods, schema: schema, apiName: output.api, baseURL: baseURL, source: target)
    try output.write(report, source: target, context: context)
  }
}

/// Paths written into registry files, relative to the file's folder.
enum RelativePath {
  /// `path` as seen from `folder` (both made absolute first).
  static func from(folder: String, to path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func parts(_ p: String) -> [String] {
      let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
      var out: [String] = []
      for c in absolute.split(separator: "/") {
        if c == "." { continue }
        if c == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(String(c)) }
      }
      return out
    }
    let from = parts(folder)
    let to = parts(path)
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    let result = (ups + to[common...]).joined(separator: "/")
    return result.isEmpty ? "." : result
  }
}
