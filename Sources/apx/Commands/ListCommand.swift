import APXCore
import APXGraphQL
import APXRuntime
import ArgumentParser

/// `apx list [API]`: what the registry holds, as JSON (or a table on request).
struct ListCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the registry's APIs, or one API's endpoints.")

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp(
      "Only this API's endpoints; or a gRPC server's services and methods over reflection, or from --protoset/--proto (grpc://HOST:PORT, grpcs://HOST:PORT; add /package.Service for one service); or, with --graphql, a GraphQL server's URL.",
      valueName: "API | GRPC-URL | URL"), completion: .custom(APICompletion.complete))
  var api: String?

  @Option(
    name: .customLong("grpc"),
    help: ArgumentHelp(
      "List the services and methods a gRPC server offers over reflection, without a registry entry (HOST:PORT or grpc://HOST:PORT plaintext, grpcs://HOST:PORT TLS).",
      valueName: "ADDRESS"))
  var grpcAddress: String?

  @OptionGroup(title: "gRPC options") var schema: GRPCSchemaOptions

  @Flag(
    name: .customLong("graphql"),
    help: ArgumentHelp(
      "URL is a GraphQL server (http(s)://HOST/PATH): list its root fields (queries, mutations, subscriptions) "
        + "with their arguments, by introspection or from --schema FILE."))
  var graphql = false

  @OptionGroup var graphQLSchema: GraphQLSchemaOptions

  func validate() throws {
    if grpcAddress != nil, api != nil { throw ValidationError("give either an API or --grpc ADDRESS, not both") }
  }

  func run(in context: Context) async throws {
    if graphql || graphQLSchema.schemaFile != nil {
      guard graphql, let url = api, grpcAddress == nil else {
        throw APXError(
          .usage,
          !graphql
            ? "--schema goes with --graphql"
            : grpcAddress != nil
              ? "give either --grpc or --graphql, not both" : "--graphql lists a server: give its URL",
          hint: "apx list https://HOST/graphql --graphql [--schema FILE]")
      }
      // The shorthands `apx call` and `apx describe` take (`:4000/graphql`, `localhost:4000/graphql`).
      guard AdHocURL.isURL(url), let parsed = try? AdHocURL(parsing: url), ["http", "https"].contains(parsed.scheme)
      else {
        throw APXError(
          .usage, "--graphql lists a GraphQL server, and \(url) is not an http:// or https:// URL",
          hint: "apx list https://HOST/graphql --graphql [--schema FILE]")
      }
      try schema.requireGRPC("\(url) is a GraphQL server")
      let summary = try await graphQLSchema.load(url: url, global: global, context: context)
      let rows = summary.rootFields.map { operation, field in
        var members = [
          JSONMember("operation", .string(operation)), JSONMember("field", .string(field.name)),
          JSONMember("arguments", .string(field.arguments.map(\.signature).joined(separator: ", "))),
          JSONMember("type", .string(field.type)),
        ]
        if let description = field.description { members.append(JSONMember("description", .string(description))) }
        return JSONValue.object(members)
      }
      return try ValuePrinter.print(
        .array(rows), global: global, context: context, tableByDefault: context.stdoutIsTerminal,
        keepWhole: ["operation", "field"])
    }
    // `apx list grpc://HOST:PORT` is `apx list --grpc grpc://HOST:PORT`.
    let grpcAddress = self.grpcAddress ?? api.flatMap { $0.hasPrefix("grpc://") || $0.hasPrefix("grpcs://") ? $0 : nil }
    if var grpcAddress {
      // `grpc://HOST:PORT/package.Service` lists that service's methods only.
      let service = try GRPCListTarget.service(in: grpcAddress)
      if service != nil, let url = try? AdHocURL(parsing: grpcAddress) { grpcAddress = url.origin }
      if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
      let methods: [GRPCMethodSummary]
      let source = schema.source()
      if source == .reflection {
        do {
          methods = try await GRPCInspector.listServices(
            at: grpcAddress, settings: try global.grpcSettings(context.environment), headers: global.headerFields,
            timeout: global.timeout ?? 10)
        } catch {
          throw Executor.aboutTheURL(error, url: grpcAddress)
        }
      } else {
        // What the files name; the server is not asked (as grpcurl's `list` with -protoset).
        _ = try GRPCTarget(parsing: grpcAddress)
        methods = try await GRPCInspector.listMethods(
          schema: source, origin: GRPCSchemaOptions.origin, environment: context.environment)
      }
      if let service, !methods.contains(where: { $0.service == service }) {
        let from = source == .reflection ? "the server at \(grpcAddress) offers" : "the schema files name"
        throw APXError(
          .usage, "\(from) no service \(service)" + (source == .reflection ? " over reflection" : ""),
          hint: "apx list \(grpcAddress)\(schema.commandLine) shows its services")
      }
      let rows = methods.filter { m in service.map { $0 == m.service } ?? true }.map { m in
        JSONValue.object([
          JSONMember("service", .string(m.service)), JSONMember("method", .string(m.method)),
          JSONMember("shape", .string(m.shape)), JSONMember("request", .string(m.requestType)),
          JSONMember("response", .string(m.responseType)),
        ])
      }
      // The service and method are what users copy into a call: never cut.
      try ValuePrinter.print(
        .array(rows), global: global, context: context, tableByDefault: context.stdoutIsTerminal,
        keepWhole: ["service", "method"])
      return
    }
    let listed = api.map { "\($0) is a registry API" } ?? "the registry is listed"
    try schema.requireGRPC("\(listed), whose files name the schemas")
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    var rows: [JSONValue] = []
    if let api {
      let definition = try registry.load(api: api)
      let shapes = try await Self.grpcShapes(definition, global: global, context: context)
      for e in definition.endpoints { rows.append(Self.row(definition, e, shape: shapes[e.name])) }
    } else {
      var problems: [String] = []
      // One line per API: a registry of many APIs would otherwise print thousands of endpoints.
      for (name, path) in registry.list() {
        do {
          rows.append(Self.summary(try RegistryFiles.load(path: path)))
        } catch {
          problems.append("\(name) (\(path)): run `apx validate \(path)`")
        }
      }
      if rows.isEmpty, problems.isEmpty {
        throw APXError(
          .usage, "the registry is empty",
          hint: "searched \(registry.directories.joined(separator: ", ")); add <api>.json files or pass --registry DIR")
      }
      for p in problems { context.warn("apx: warning: skipped invalid registry file \(p)") }
    }
    // Names are what users copy into a call: never cut; targets whole where there is room.
    try ValuePrinter.print(
      .array(rows), global: global, context: context, tableByDefault: context.stdoutIsTerminal,
      keepWhole: ["api", "endpoint"], uncapped: ["target"])
  }

  /// One API of `apx list`: its name, how many endpoints it has, its environments (the default
  /// first) and its title or description when it has one; `apx list API` shows the endpoints.
  static func summary(_ api: APIDefinition) -> JSONValue {
    var environments = api.environments.map(\.name)
    if let first = api.defaultEnvironment, let index = environments.firstIndex(of: first) {
      environments.insert(environments.remove(at: index), at: 0)
    }
    var members = [
      JSONMember("api", .string(api.name)), JSONMember("endpoints", .int(api.endpoints.count)),
      JSONMember("environments", .array(environments.map(JSONValue.string))),
    ]
    if let about = api.title ?? api.description { members.append(JSONMember("description", .string(about))) }
    return .object(members)
  }

  /// Call shapes of an API's gRPC endpoints, by endpoint name: file schemas
  /// are read locally, reflection schemas ask the server (skipped, with a
  /// warning, when it cannot be reached).
  static func grpcShapes(_ api: APIDefinition, global: GlobalOptions, context: Context) async throws
    -> [String: String]
  {
    let endpoints = api.endpoints.filter { $0.grpc != nil }
    guard !endpoints.isEmpty else { return [:] }
    return try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let base = try? BaseURLResolver.resolve(
        api: api, environment: global.environment, override: global.baseURL, demo: demo,
        processEnvironment: context.environment,
        configured: context.configuredEnvironment(for: api.name))
      let tls = base.flatMap { RegistryTLS.files(api: api, environment: $0.environmentName, baseURL: $0.baseURL) }
      return try await GRPCSession.with(global.grpcSettings(context.environment, tls: tls)) { grpc in
        var shapes: [String: String] = [:]
        var unreachable: String?
        for e in endpoints {
          guard let base, unreachable == nil || !Self.usesReflection(e) else { continue }
          do {
            let summary = try await GRPCInspector.describe(
              api: api, endpoint: e, baseURL: base.baseURL, environment: context.environment, session: grpc,
              headers: global.headerFields, timeout: global.timeout ?? 3)
            shapes[e.name] = summary.shape
          } catch let error as APXError {
            if Self.usesReflection(e) { unreachable = error.message }
            context.warn("apx: warning: no call shape for \(api.name).\(e.name): \(error.message)")
          }
        }
        return shapes
      }
    }
  }

  static func usesReflection(_ e: Endpoint) -> Bool {
    if case .reflection = e.grpc?.schema { return true }
    return false
  }

  static func row(_ api: APIDefinition, _ e: Endpoint, shape: String? = nil) -> JSONValue {
    var members = [
      JSONMember("endpoint", .string("\(api.name).\(e.name)")),
      JSONMember("kind", .string(e.kind.rawValue)),
    ]
    if let grpc = e.grpc {
      members.append(JSONMember("target", .string("\(grpc.service)/\(grpc.method)")))
      if let shape { members.append(JSONMember("shape", .string(shape))) }
    } else {
      members.append(JSONMember("target", .string("\(e.method) \(e.path)")))
    }
    // No description leaves the cell empty, not `null`.
    if let description = e.description { members.append(JSONMember("description", .string(description))) }
    return .object(members)
  }
}
