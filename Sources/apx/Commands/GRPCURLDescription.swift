import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx describe grpc://HOST:PORT/package.Service[/Method]`: a method's call shape, message
/// fields and request template, or every method of a service, from server reflection.
enum GRPCURLDescription {
  static func json(_ text: String, global: GlobalOptions, context: Context) async throws -> JSONValue {
    let url = try AdHocURL(parsing: text)
    do {
      return try await json(url, global: global, environment: context.environment)
    } catch {
      // The URL names the server: a refused connection's hint speaks of it, not of --base-url.
      throw Executor.aboutTheURL(error, url: url.origin)
    }
  }

  private static func json(_ url: AdHocURL, global: GlobalOptions, environment: [String: String]) async throws
    -> JSONValue
  {
    let (service, method) = try AdHocGRPCEndpoint.serviceAndMethod(url)
    let settings = global.grpcSettings(environment)
    let timeout = global.timeout ?? 10
    guard let method else {
      let methods = try await GRPCInspector.listServices(
        at: url.origin, settings: settings, headers: global.headerFields, timeout: timeout
      ).filter { $0.service == service }
      guard !methods.isEmpty else {
        throw APXError(
          .usage, "the server at \(url.origin) offers no service \(service) over reflection",
          hint: "apx list \(url.origin) shows its services")
      }
      return .object([
        JSONMember("service", .string(service)),
        JSONMember("methods", .array(methods.map { summary($0, url: url) })),
      ])
    }
    let made = try AdHocGRPCEndpoint.make(url: url, items: [], schema: .reflection)
    let found = try await GRPCSession.with(settings) { grpc in
      try await GRPCInspector.describe(
        api: made.api, endpoint: made.endpoint, baseURL: url.origin, environment: environment,
        session: grpc, headers: global.headerFields, timeout: timeout)
    }
    return summary(found, url: url)
  }

  /// One method: shape, types, fields, template and an example command.
  static func summary(_ m: GRPCMethodSummary, url: AdHocURL) -> JSONValue {
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
            ? "printf '%s\\n' \(quoted) | apx call \(target)   # one request message per line"
            : "apx call \(target) -d \(quoted)")),
    ])
  }
}
