import APXCore
import APXRuntime
import ArgumentParser

/// `apx describe API.ENDPOINT`: parameters, types, an example command.
struct DescribeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "describe", abstract: "Show an endpoint's parameters and an example call, as JSON.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The endpoint, API.ENDPOINT.", valueName: "API.ENDPOINT"), completion: .custom(EndpointCompletion.complete))
  var target: String

  func run() async throws {
    let context = Context.shared
    let registry = RegistryFiles(directories: context.registryDirectories(global.registry))
    let t = try CallTarget.resolve(target, registry: registry)
    try ValuePrinter.print(EndpointDescription.json(api: t.api, endpoint: t.endpoint), global: global, context: context)
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
    var params: [JSONValue] = []
    for p in e.params {
      var pm: [JSONMember] = [
        JSONMember("name", .string(p.name)), JSONMember("in", .string(p.location.rawValue)),
        JSONMember("type", .string(p.type.rawValue)), JSONMember("required", .bool(p.required && p.defaultValue == nil)),
      ]
      if let d = p.defaultValue { pm.append(JSONMember("default", d)) }
      if let d = p.description { pm.append(JSONMember("description", .string(d))) }
      if let c = p.contentType { pm.append(JSONMember("content_type", .string(c))) }
      if let a = p.allowed { pm.append(JSONMember("enum", .array(a))) }
      if p.secret { pm.append(JSONMember("secret", .bool(true))) }
      params.append(.object(pm))
    }
    m.append(JSONMember("params", .array(params)))
    if let s = e.expectStatus { m.append(JSONMember("expect_status", .array(s.map { .int($0) }))) }
    if let sse = e.sse {
      var sm: [JSONMember] = []
      if !sse.untilEvent.isEmpty { sm.append(JSONMember("until_event", .array(sse.untilEvent.map(JSONValue.string)))) }
      if !sse.failOnEvent.isEmpty { sm.append(JSONMember("fail_on_event", .array(sse.failOnEvent.map(JSONValue.string)))) }
      if let f = sse.fallback { sm.append(JSONMember("fallback_poll", .string(f.poll))) }
      m.append(JSONMember("stream", .object(sm)))
    }
    if let auth = e.auth ?? api.auth { m.append(JSONMember("auth", .string(auth.typeName))) }
    m.append(JSONMember("example", .string(CallExample.line(api: api, endpoint: e))))
    return .object(m)
  }
}
