import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx describe API.ENDPOINT`: parameters, types, an example command.
struct DescribeCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "describe", abstract: "Show an endpoint's parameters and an example call, as JSON.")

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp(
      "The endpoint, API.ENDPOINT; or a gRPC service, method or message type, grpc://HOST:PORT/package.Service[/Method] or grpc://HOST:PORT/package.Message.",
      valueName: "API.ENDPOINT | GRPC-URL"),
    completion: .custom(EndpointCompletion.complete))
  var target: String

  @OptionGroup(title: "gRPC options") var schema: GRPCSchemaOptions

  @Option(
    name: .customLong("graphql"),
    help: ArgumentHelp(
      "The target is a GraphQL server's URL: describe this field (Type.field, e.g. Query.book) or type (TypeName), "
        + "by introspection or from --schema FILE.", valueName: "NAME"))
  var graphql: String?

  @OptionGroup var graphQLSchema: GraphQLSchemaOptions

  func run(in context: Context) async throws {
    if let graphql {
      try schema.requireGRPC("\(target) is a GraphQL server")
      let summary = try await graphQLSchema.load(url: target, global: global, context: context)
      return try ValuePrinter.print(try GraphQLDescription.json(graphql, in: summary), global: global, context: context)
    }
    if let file = graphQLSchema.schemaFile {
      throw APXError(
        .usage, "--schema \(file) is a GraphQL schema, and goes with --graphql NAME",
        hint: "apx describe https://HOST/graphql --graphql Query.book --schema \(file)")
    }
    if target.hasPrefix("grpc://") || target.hasPrefix("grpcs://") {
      try ValuePrinter.print(
        try await GRPCURLDescription.json(target, schema: schema, global: global, context: context),
        global: global, context: context)
      return
    }
    try schema.requireGRPC("\(target) is a registry endpoint, whose file names its schema")
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let t = try CallTarget.resolve(target, registry: registry)
    var description = EndpointDescription.json(api: t.api, endpoint: t.endpoint)
    if t.endpoint.kind == .grpc {
      description = try await GRPCDescription.adding(
        to: description, api: t.api, endpoint: t.endpoint, global: global, context: context)
    }
    try ValuePrinter.print(description, global: global, context: context)
  }
}

/// The gRPC part of `describe`: call shape, message types and a request
/// JSON template, from the endpoint's schema (a reflection schema asks the
/// server of the chosen environment, `--base-url` or `--demo`).
enum GRPCDescription {
  static func adding(
    to description: JSONValue, api: APIDefinition, endpoint: Endpoint, global: GlobalOptions, context: Context
  ) async throws -> JSONValue {
    guard case .object(var members) = description else { return description }
    let summary: GRPCMethodSummary = try await DemoBackend.withOptionalDemo(global.demo) { demo in
      let resolved = try BaseURLResolver.resolve(
        api: api, environment: global.environment, override: global.baseURL, demo: demo,
        processEnvironment: context.environment,
        configured: context.configuredEnvironment(for: api.name))
      let tls = RegistryTLS.files(api: api, environment: resolved.environmentName, baseURL: resolved.baseURL)
      return try await GRPCSession.with(global.grpcSettings(context.environment, tls: tls)) { grpc in
        try await GRPCInspector.describe(
          api: api, endpoint: endpoint, baseURL: resolved.baseURL, environment: context.environment, session: grpc,
          headers: global.headerFields, timeout: global.timeout ?? 10)
      }
    }
    let at = (members.firstIndex { $0.key == "method" } ?? members.count - 1) + 1
    members.insert(
      contentsOf: [
        JSONMember("shape", .string(summary.shape)),
        JSONMember("request_type", .string(summary.requestType)),
        JSONMember("response_type", .string(summary.responseType)),
      ], at: min(at, members.count))
    let template = JSONPrinter(style: .compact).string(summary.requestTemplate)
    let quoted = "'" + template.replacingEach("'", with: "'\\''") + "'"
    let streaming = summary.shape == "client_streaming" || summary.shape == "bidi_streaming"
    members.removeAll { $0.key == "example" }
    members.append(JSONMember("request_template", summary.requestTemplate))
    members.append(JSONMember("example", .string(CallExample.line(api: api, endpoint: endpoint))))
    members.append(
      JSONMember(
        "example_json",
        .string(
          streaming
            ? "printf '%s\\n' \(quoted) | apx call \(api.name).\(endpoint.name)   # one request message per line"
            : "apx call \(api.name).\(endpoint.name) -d \(quoted)")))
    return .object(members)
  }
}

/// The JSON `describe` prints.
enum EndpointDescription {
  static func json(api: APIDefinition, endpoint e: Endpoint) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("endpoint", .string("\(api.name).\(e.name)")),
      JSONMember("kind", .string(e.kind.rawValue)),
    ]
    if let d = e.description { m.append(JSONMember("description", .string(d))) }
    if e.kind == .grpc, let g = e.grpc {
      m.append(JSONMember("service", .string(g.service)))
      m.append(JSONMember("method", .string(g.method)))
    } else {
      m.append(JSONMember("method", .string(e.method)))
      m.append(JSONMember("path", .string(e.path)))
    }
    if let graphql = e.graphql {
      m.append(JSONMember("query", .string(graphql.document)))
      if let name = graphql.operationName { m.append(JSONMember("operation_name", .string(name))) }
      if let transport = graphql.transport { m.append(JSONMember("transport", .string(transport.rawValue))) }
    }
    if let rpc = e.jsonrpc {
      m.append(JSONMember("rpc_method", .string(rpc.rpcMethod)))
      m.append(JSONMember("params_by", .string(rpc.paramsBy.rawValue)))
      if rpc.notification { m.append(JSONMember("notification", .bool(true))) }
    }
    var params: [JSONValue] = []
    for p in e.params {
      var pm: [JSONMember] = [
        JSONMember("name", .string(p.name)), JSONMember("in", .string(p.location.rawValue)),
        JSONMember("type", .string(p.type.rawValue)),
        JSONMember("required", .bool(p.required && p.defaultValue == nil)),
      ]
      if let d = p.defaultValue { pm.append(JSONMember("default", d)) }
      if let d = p.description { pm.append(JSONMember("description", .string(d))) }
      if let c = p.contentType { pm.append(JSONMember("content_type", .string(c))) }
      if let a = p.allowed { pm.append(JSONMember("enum", .array(a))) }
      pm += RegistryWriter.constraints(p.constraints)
      if p.secret { pm.append(JSONMember("secret", .bool(true))) }
      if let style = p.style { pm.append(JSONMember("style", .string(style.rawValue))) }
      if let explode = p.explode { pm.append(JSONMember("explode", .bool(explode))) }
      if p.deprecated { pm.append(JSONMember("deprecated", .bool(true))) }
      params.append(.object(pm))
    }
    m.append(JSONMember("params", .array(params)))
    if let x = e.bodyExample { m.append(JSONMember("body_example", x)) }
    if !e.accepts.isEmpty {
      // The other request bodies the server takes (apx mock judges them by these entries).
      m.append(JSONMember("accepts", .array(e.accepts.map { .string($0.contentType) })))
    }
    if let s = e.expectStatus { m.append(JSONMember("expect_status", .array(s.map { .int($0) }))) }
    if let sse = e.sse {
      var sm: [JSONMember] = []
      if !sse.untilEvent.isEmpty { sm.append(JSONMember("until_event", .array(sse.untilEvent.map(JSONValue.string)))) }
      if !sse.failOnEvent.isEmpty {
        sm.append(JSONMember("fail_on_event", .array(sse.failOnEvent.map(JSONValue.string))))
      }
      if let f = sse.fallback { sm.append(JSONMember("fallback_poll", .string(f.poll))) }
      m.append(JSONMember("stream", .object(sm)))
    }
    if let ws = e.websocket { m.append(JSONMember("websocket", webSocket(ws))) }
    if let pages = e.pagination { m.append(JSONMember("pagination", pages.registryJSON)) }
    if let auth = e.auth ?? api.auth {
      m.append(JSONMember("auth", .string(auth.typeName)))
      // Where a WebSocket handshake carries it: `bookstrack-auth.<token>` as a subprotocol.
      if let prefix = auth.subprotocolPrefix { m.append(JSONMember("auth_subprotocol", .string(prefix + "<token>"))) }
    }
    m.append(JSONMember("example", .string(CallExample.line(api: api, endpoint: e))))
    if let x = e.bodyExample {
      // The body template as a ready-to-edit `-d` argument.
      let quoted = "'" + x.compactJSON.replacingEach("'", with: "'\\''") + "'"
      m.append(JSONMember("example_json", .string("apx call \(api.name).\(e.name) -d \(quoted)")))
    }
    return .object(m)
  }

  /// A WebSocket endpoint's watch: what it offers and sends, when it stops, and when it
  /// reconnects (the defaults included, so that a reader sees them); the messages the mock
  /// plays are left to the registry file.
  static func webSocket(_ o: WebSocketOptions) -> JSONValue {
    var members = RegistryWriter.webSocketMembers(o).filter { !["reconnect", "server_messages"].contains($0.key) }
    members.append(JSONMember("reconnect", RegistryWriter.reconnect(o.reconnect)))
    return .object(members)
  }
}
