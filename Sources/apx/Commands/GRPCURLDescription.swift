import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx describe grpc://HOST:PORT/package.Service[/Method]`: a method's call shape, message
/// fields and request template, or every method of a service, or (`package.Message`) a
/// message type's fields and template, from server reflection or from the files `--protoset`
/// / `--proto` name (then the server is not asked).
enum GRPCURLDescription {
  static func json(_ text: String, schema: GRPCSchemaOptions, global: GlobalOptions, context: Context) async throws
    -> JSONValue
  {
    let url = try AdHocURL(parsing: text)
    do {
      return try await json(url, schema: schema, global: global, environment: context.environment)
    } catch {
      // The URL names the server: a refused connection's hint speaks of it, not of --base-url.
      throw Executor.aboutTheURL(error, url: url.origin)
    }
  }

  private static func json(
    _ url: AdHocURL, schema: GRPCSchemaOptions, global: GlobalOptions, environment: [String: String]
  ) async throws -> JSONValue {
    let (service, method) = try AdHocGRPCEndpoint.serviceAndMethod(url)
    let settings = try global.grpcSettings(environment)
    let timeout = global.timeout ?? 10
    let source = schema.source()
    guard let method else {
      let all: [GRPCMethodSummary]
      if case .reflection = source {
        all = try await GRPCInspector.listServices(
          at: url.origin, settings: settings, headers: global.headerFields, timeout: timeout)
      } else {
        all = try await GRPCInspector.listMethods(
          schema: source, origin: GRPCSchemaOptions.origin, environment: environment)
      }
      let methods = all.filter { $0.service == service }
      guard !methods.isEmpty else {
        // `package.Message`: a message type, from the file that declares it.
        if let message = try await GRPCInspector.message(
          service, at: url.origin, schema: source, origin: GRPCSchemaOptions.origin, settings: settings,
          headers: global.headerFields, timeout: timeout, environment: environment)
        {
          return .object([
            JSONMember("message", .string(message.type)),
            JSONMember("fields", .array(message.fields.map(JSONValue.string))),
            JSONMember("template", message.template),
          ])
        }
        let from = source == .reflection ? "the server at \(url.origin) offers" : "the schema files name"
        throw APXError(
          .usage,
          "\(from) no service or message type \(service)" + (source == .reflection ? " over reflection" : ""),
          hint: "apx list \(url.origin)\(schema.commandLine) shows its services")
      }
      return .object([
        JSONMember("service", .string(service)),
        JSONMember("methods", .array(methods.map { summary($0, url: url, schema: schema) })),
      ])
    }
    let made = try AdHocGRPCEndpoint.make(url: url, items: [], schema: source)
    let found = try await GRPCSession.with(settings) { grpc in
      try await GRPCInspector.describe(
        api: made.api, endpoint: made.endpoint, baseURL: url.origin, environment: environment,
        session: grpc, headers: global.headerFields, timeout: timeout, origin: GRPCSchemaOptions.origin)
    }
    return summary(found, url: url, schema: schema)
  }

  /// One method: shape, types, fields, template and an example command (with the schema flags
  /// that found it).
  static func summary(_ m: GRPCMethodSummary, url: AdHocURL, schema: GRPCSchemaOptions) -> JSONValue {
    let template = JSONPrinter(style: .compact).string(m.requestTemplate)
    let quoted = "'" + template.replacingEach("'", with: "'\\''") + "'"
    let target = "\(url.origin)/\(m.service)/\(m.method)"
    let streaming = m.shape == "client_streaming" || m.shape == "bidi_streaming"
    return .object([
      JSONMember("url", .string(target)),
      JSONMember("service", .string(m.service)),
      JSONMember("method", .string(m.method)),
      JSONMember("shape", .string(m.shape)),
      JSONMember("request_type", .string(m.requestType)),
      JSONMember("response_type", .string(m.responseType)),
      JSONMember("request_fields", .array(m.requestFields.map(JSONValue.string))),
      JSONMember("response_fields", .array(m.responseFields.map(JSONValue.string))),
      JSONMember("request_template", m.requestTemplate),
      JSONMember(
        "example",
        .string(
          streaming
            ? "printf '%s\\n' \(quoted) | apx call \(target)\(schema.commandLine)   # one request message per line"
            : "apx call \(target)\(schema.commandLine) -d \(quoted)")),
    ])
  }
}
