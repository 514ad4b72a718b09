import APXCore
import APXGRPCMock
import APXImport
import APXMock
import APXRuntime
import ArgumentParser

/// `apx mock [API ...] | --openapi FILE|URL`: registry APIs, or an API description, served as a
/// fake backend on loopback until Ctrl-C.
struct MockCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "mock",
    abstract: "Serve registry APIs (or an OpenAPI description) as a fake backend on 127.0.0.1 until Ctrl-C.",
    discussion: """
      Each API gets its own port (the first --port, then the ones after it; --port 0 picks free ones). \
      Answers are the declared examples, else values generated from the declared schemas (the same \
      --seed gives the same values); requests are checked against the parameters (400, or 422 where \
      declared) and the auth's form (401); `Prefer: code=404` or `Prefer: example=NAME` picks an answer. \
      Faults come from the flags or, per request, from the header X-Apx-Mock-Fault (e.g. \
      "latency=200+50; fail=503"). GET /__apx/requests lists what was received, POST /__apx/reset \
      clears it. WebSocket endpoints send their server_messages (or generated ones), then close. An \
      OAuth2 API's token endpoint is served at its token URL's path; its tokens expire after \
      --token-lifetime seconds (then 401 invalid_token). gRPC \
      endpoints are answered on --grpc-port from their schema, with server reflection. \
      --replay FILE.har|DIR answers with recorded exchanges instead; --record DIR --upstream URL \
      (and/or --grpc-upstream grpc://HOST:PORT) forwards to a real server and records each exchange \
      into DIR. \
      Prints one JSON line with the addresses on stdout once listening. See docs/mock.md.
      """)

  @OptionGroup var registryOptions: RegistryOptions

  @Argument(
    help: ArgumentHelp("The registry APIs to serve (default: every API in the registry).", valueName: "API"),
    completion: .custom(APICompletion.complete))
  var apis: [String] = []

  @Option(
    name: .customLong("openapi"),
    help: ArgumentHelp(
      "Serve this OpenAPI/Swagger description (a .json/.yaml file or an http(s) URL) without importing it.",
      valueName: "FILE|URL"),
    completion: .file(extensions: ["json", "yaml", "yml", "gz"]))
  var openapi: String?

  @Flag(
    name: .customLong("allow-remote-refs"),
    help: "--openapi FILE: follow $refs into http(s) URLs (a description fetched from a URL always may).")
  var allowRemoteRefs = false

  @Option(
    name: .customLong("replay"),
    help: ArgumentHelp(
      "Answer with the exchanges of this HTTP archive, or of every *.har in a folder (repeatable).",
      valueName: "FILE.har|DIR"),
    completion: .file(extensions: ["har"]))
  var replay: [String] = []

  @Flag(
    name: .customLong("full-speed"),
    help: "--replay: send recorded event streams at once, not spaced as they were recorded.")
  var fullSpeed = false

  @Option(
    name: .customLong("record"),
    help: ArgumentHelp(
      "Forward every request to --upstream and record each exchange into an HTTP archive in this folder.",
      valueName: "DIR"),
    completion: .directory)
  var record: String?

  @Option(
    name: .customLong("upstream"),
    help: ArgumentHelp("--record: the server to forward to (an http:// or https:// URL).", valueName: "URL"))
  var upstream: String?

  @Option(
    name: .customLong("grpc-upstream"),
    help: ArgumentHelp(
      "--record: the gRPC server to forward --grpc-port's calls to (grpc:// or grpcs://; needs its reflection).",
      valueName: "URL"))
  var grpcUpstream: String?

  @OptionGroup(title: "Fetching") var fetch: FetchOptions

  @Option(
    name: .customLong("port"), parsing: .unconditional,
    help: ArgumentHelp("Port of the first API (0 picks free ones).", valueName: "N"))
  var port = 4010

  @Option(
    name: .customLong("grpc-port"), parsing: .unconditional,
    help: ArgumentHelp(
      "Port of the gRPC server that answers every gRPC endpoint's methods (0 picks a free one).", valueName: "N"))
  var grpcPort = 4770

  @Option(
    name: .customLong("host"),
    help: ArgumentHelp("Address to listen on (0.0.0.0 for every interface).", valueName: "H"))
  var host = "127.0.0.1"

  @Option(
    name: .customLong("seed"), parsing: .unconditional,
    help: ArgumentHelp("Seed of generated answers: the same seed gives the same answers.", valueName: "N"))
  var seed: UInt64 = 0

  @Option(
    name: .customLong("latency"),
    help: ArgumentHelp("Delay every answer by MS milliseconds, plus up to RANDMS more.", valueName: "MS[+RANDMS]"))
  var latency: String?

  @Option(
    name: .customLong("fail-rate"), parsing: .unconditional,
    help: ArgumentHelp("Fail this fraction of requests (0 to 1) with --fail-status.", valueName: "P"))
  var failRate: Double = 0

  @Option(
    name: .customLong("fail-status"), parsing: .unconditional,
    help: ArgumentHelp("Status of injected failures, sent with Retry-After: 1.", valueName: "N"))
  var failStatus = 503

  @Option(
    name: .customLong("drop-every"), parsing: .unconditional,
    help: ArgumentHelp(
      "Cut SSE streams and WebSocket connections after every N events or messages (clients resume).",
      valueName: "N"))
  var dropEvery = 0

  @Option(
    name: .customLong("drop-mode"),
    help: ArgumentHelp(
      "How --drop-every drops a stream: close (its end is sent) or abort (the connection is cut mid-body).",
      valueName: "close|abort"))
  var dropMode = "close"

  @Option(
    name: .customLong("sse-events"), parsing: .unconditional,
    help: ArgumentHelp("Events (SSE) or messages (WebSocket) an endpoint without examples sends.", valueName: "N"))
  var sseEvents = 10

  @Option(
    name: .customLong("token-lifetime"), parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds the OAuth2 access tokens of the mocked token endpoints stay good.", valueName: "SECONDS"))
  var tokenLifetime = 3600

  @Option(
    name: .customLong("max-generated-size"), parsing: .unconditional,
    help: ArgumentHelp(
      "The most one generated answer may take, in bytes of JSON; a schema asking for more is answered 500.",
      valueName: "BYTES"))
  var maxGeneratedSize = MockOptions.defaultMaxGeneratedSize

  @Flag(
    name: .customLong("stateful"),
    help: "Keep what POST/PUT/PATCH/DELETE write to collections, so a created resource can be read back.")
  var stateful = false

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    guard (0...65535).contains(grpcPort) else { throw ValidationError("--grpc-port must be from 0 to 65535") }
    try validateRecording()
    if allowRemoteRefs, openapi == nil {
      throw ValidationError("--allow-remote-refs applies only to --openapi FILE|URL")
    }
    if openapi != nil, !apis.isEmpty || !registryOptions.registry.isEmpty {
      throw ValidationError("give either registry APIs (and --registry) or --openapi, not both")
    }
    if !replay.isEmpty {
      if openapi != nil || !apis.isEmpty || !registryOptions.registry.isEmpty {
        throw ValidationError("--replay serves archives: give no API, --registry or --openapi with it")
      }
      let ignored = [
        ("--latency", latency != nil), ("--fail-rate", failRate != 0), ("--fail-status", failStatus != 503),
        ("--drop-every", dropEvery != 0), ("--drop-mode", dropMode != "close"), ("--sse-events", sseEvents != 10),
        ("--stateful", stateful), ("--seed", seed != 0), ("--token-lifetime", tokenLifetime != 3600),
        ("--max-generated-size", maxGeneratedSize != MockOptions.defaultMaxGeneratedSize),
      ].filter(\.1).map(\.0)
      if !ignored.isEmpty {
        throw ValidationError(
          "\(ignored.joined(separator: ", ")) cannot be used with --replay: it answers what was recorded")
      }
    }
    guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate must be from 0 to 1, got \(failRate)") }
    guard (400...599).contains(failStatus) else {
      throw ValidationError("--fail-status must be an error status (400 to 599), got \(failStatus)")
    }
    guard dropEvery >= 0 else { throw ValidationError("--drop-every must be 0 or more, got \(dropEvery)") }
    guard DropMode(rawValue: dropMode) != nil else {
      throw ValidationError("--drop-mode must be close or abort, got \"\(dropMode)\"")
    }
    if dropMode != "close", dropEvery == 0 {
      throw ValidationError("--drop-mode says how --drop-every drops streams: give --drop-every N with it")
    }
    guard (1...100_000).contains(sseEvents) else {
      throw ValidationError("--sse-events must be from 1 to 100000, got \(sseEvents)")
    }
    guard (1_024...1 << 30).contains(maxGeneratedSize) else {
      throw ValidationError("--max-generated-size must be from 1024 to 1073741824 bytes, got \(maxGeneratedSize)")
    }
    guard (1...1_000_000_000).contains(tokenLifetime) else {
      throw ValidationError("--token-lifetime must be from 1 to 1000000000 seconds, got \(tokenLifetime)")
    }
    guard !host.isEmpty else { throw ValidationError("--host must name an address") }
    if let latency {
      do {
        _ = try MockFaults.latency(latency)
      } catch {
        throw ValidationError("--latency: \(error.message)")
      }
    }
  }

  /// The flags' faults.
  func faults() throws -> MockFaults {
    var faults = MockFaults()
    if let latency { (faults.latency, faults.jitter) = try MockFaults.latency(latency) }
    faults.failRate = failRate
    faults.failStatus = failStatus
    faults.dropEvery = dropEvery
    faults.dropMode = DropMode(rawValue: dropMode) ?? .close
    return faults
  }

  /// The APIs to serve: the description's, the named ones, or every one the registry holds.
  func definitions(in context: Context) async throws -> [APIDefinition] {
    if let openapi {
      fetch.warnIfInsecure(context)
      // Credentials in the description's URL are masked wherever it is named, as for apx import.
      let mask = ImportOpenAPICommand.sourceMask(openapi)
      let report: ImportReport
      do {
        report = try await ImportOpenAPICommand.importReport(
          source: openapi, shown: mask.mask(openapi), apiName: nil, timeout: fetch.timeout(default: 30),
          session: try fetch.httpSession(context), allowRemoteRefs: allowRemoteRefs)
      } catch let error as APXError {
        throw RecipeSecrets.masked(error, with: mask)
      }
      for skip in report.skipped { context.warn("apx mock: not served: \(skip.item): \(skip.reason)") }
      return [report.api]
    }
    let registry = RegistryFiles(directories: context.registryDirectories(registryOptions.registry))
    if !apis.isEmpty { return try apis.map { try registry.load(api: $0) } }
    var all: [APIDefinition] = []
    for (name, path) in registry.list() {
      do {
        all.append(try RegistryFiles.load(path: path))
      } catch {
        context.warn("apx mock: warning: skipped invalid registry file \(path) (\(name))")
      }
    }
    guard !all.isEmpty else {
      throw APXError(
        .usage, "the registry holds no API to serve",
        hint:
          "searched \(registry.directories.joined(separator: ", ")); pass --registry DIR, API names or --openapi FILE")
    }
    return all
  }

  func run(in context: Context) async throws {
    if record != nil { return try await runRecord(in: context) }
    if !replay.isEmpty { return try await runReplay(in: context) }
    // The mock reads GraphQL documents to tell operations apart: `@file` ones are read here.
    let apis = try await definitions(in: context).map { api throws(APXError) in
      try GraphQLDocuments.resolvingDocuments(api)
    }
    let options = MockOptions(
      host: host, port: port, seed: seed, faults: try faults(), sseEvents: sseEvents, stateful: stateful,
      tokenLifetime: tokenLifetime, maxGeneratedSize: maxGeneratedSize)
    let server: MockServer
    do {
      server = try await MockServer.start(apis: apis, options: options) { line in context.warn(line) }
    } catch {
      throw APXError(
        .network, "apx mock could not listen on \(host):\(port)",
        hint: "is another process using the port? Try --port 0 for free ports", underlying: error)
    }
    let grpc: GRPCMockServer?
    do {
      grpc = try await MockGRPCServing.start(
        apis: apis, host: host, port: grpcPort, seed: seed, faults: try faults(), server: server,
        context: context)
    } catch {
      await server.stop()
      throw error
    }
    var addresses = server.addresses
    if let grpc {
      let url = Origin(scheme: "grpc", host: host, port: grpc.port).description
      // An API with HTTP endpoints keeps its name for its HTTP address.
      for api in apis where api.endpoints.contains(where: { !$0.kind.capabilities.servedOverHTTP }) {
        let served = api.endpoints.contains { $0.kind.capabilities.servedOverHTTP }
        addresses.append((served ? api.name + ".grpc" : api.name, url))
      }
      // A gRPC-only API's HTTP port serves its request log and token endpoint: "API.http".
      for i in addresses.indices where !addresses[i].url.hasPrefix("grpc://") {
        if apis.contains(where: {
          $0.name == addresses[i].api && !$0.endpoints.contains { $0.kind.capabilities.servedOverHTTP }
        }) {
          addresses[i].api += ".http"
        }
      }
    }
    let info = JSONValue.object(addresses.map { JSONMember($0.api, .string($0.url)) })
    context.stdout.write(JSONPrinter(style: .compact).bytes(info) + [0x0A])
    context.stdout.flush()
    for (api, url) in addresses { context.warn("apx mock: \(api) listening on \(url)") }
    for (api, url) in server.tokenEndpoints { context.warn("apx mock: \(api) issues OAuth2 tokens at \(url)") }
    let unanswerable = apis.flatMap { api in
      MockServer.graphQLWithoutExamples(api).map { api.name + "." + $0.name }
    }
    if !unanswerable.isEmpty {
      context.warn(
        "apx mock: note: GraphQL endpoints without an example answer, answered with an error: "
          + unanswerable.joined(separator: ", "))
    }
    context.warn("apx mock: Ctrl-C stops it")
    do {
      try await server.runUntilCancelled()
    } catch {
      await grpc?.stop()
      throw error
    }
    await grpc?.stop()
  }

  /// The most read from one archive: browsers' exports with media run to tens of MB. Held whole
  /// with its parsed JSON (about 3.5 bytes of memory per byte).
  static let archiveLimit = 256 * 1_048_576

  /// `--replay`: one server answering with the archives' exchanges.
  func runReplay(in context: Context) async throws {
    var exchanges: [HARExchange] = []
    var descriptorSets: [[UInt8]] = []
    for file in try Self.archives(replay) {
      let bytes = try FileBytes.read(file, limit: Self.archiveLimit) { limit in
        APXError(
          .invalidDefinition,
          "\(file) is larger than \(limit / 1_048_576) MiB, the most apx mock reads from one archive",
          hint:
            "leave out the bodies it need not answer with (media, downloads), or split it into files of a folder for --replay DIR"
        )
      }
      exchanges += try HARReader.exchanges(bytes, name: file)
      descriptorSets += HARReader.descriptorSets(bytes)
    }
    let options = MockOptions(host: host, port: port)
    let replayed = HARReplay(exchanges)
    let grpc = try await grpcReplay(replayed, descriptorSets: descriptorSets, context: context)
    do {
      let server = try await listening(in: context, more: grpc.map { [("replay.grpc", $0.url)] } ?? []) {
        try await MockServer.startReplay(replayed, name: "replay", options: options, paced: !fullSpeed) {
          line in context.warn(line)
        }
      }
      for (_, url) in server.addresses + (grpc.map { [("replay.grpc", $0.url)] } ?? []) {
        context.warn(
          "apx mock: replaying \(exchanges.count) exchanges from \(replay.joined(separator: ", ")) on \(url)")
      }
      context.warn("apx mock: Ctrl-C stops it")
      try await server.runUntilCancelled()
    } catch {
      await grpc?.server.stop()
      throw error
    }
    await grpc?.server.stop()
  }
}
