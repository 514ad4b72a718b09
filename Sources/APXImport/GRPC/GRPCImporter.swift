public import APXCore

/// Builds a registry from the methods a gRPC schema describes (read by the
/// caller from reflection, a protoset or .proto files): one endpoint per
/// method, its schema source kept by reference, params from the request
/// message's top-level fields.
///
/// Names: `create-lesson` from method `CreateLesson` when the schema has one
/// service; `service-name.create-lesson` (the service's last name part) with
/// several. Repeats get `-2`, `-3`, as for OpenAPI imports.
public enum GRPCImporter {
  /// One method as read from the schema.
  public struct Method: Sendable {
    public var service: String
    public var method: String
    /// `unary`, `server_streaming`, `client_streaming` or `bidi_streaming`.
    public var shape: String
    public var requestType: String
    public var responseType: String
    /// A request JSON with every field (see `DescriptorPool.template(for:)`).
    public var requestTemplate: JSONValue

    public init(
      service: String, method: String, shape: String, requestType: String, responseType: String,
      requestTemplate: JSONValue
    ) {
      self.service = service
      self.method = method
      self.shape = shape
      self.requestType = requestType
      self.responseType = responseType
      self.requestTemplate = requestTemplate
    }
  }

  /// The registry for `methods`; `baseURL` (grpc:// or grpcs://) becomes the `default` environment.
  public static func importMethods(
    _ methods: [Method], schema: SchemaSource, apiName: String?, baseURL: String?, source: String
  ) throws(APXError) -> ImportReport {
    let services = methods.map(\.service).filter { !$0.hasPrefix("grpc.reflection.") && !$0.hasPrefix("grpc.health.") }
    guard let firstService = services.first else {
      throw APXError(
        .usage, "\(source) describes no gRPC services", hint: "check the target, or the .proto file's services")
    }
    let name = apiName ?? defaultName(service: firstService)
    var api = APIDefinition(name: name, sourceFile: "")
    api.schemaReference = "./registry.schema.json"
    api.title = "gRPC services: " + Array(Set(services)).sorted().joined(separator: ", ")
    if let baseURL {
      api.environments = [NamedEnvironment(name: "default", baseURL: baseURL)]
      api.defaultEnvironment = "default"
    }
    var report = ImportReport(api: api, format: "gRPC schema")
    let several = Set(services).count > 1
    var names = OperationNaming.Registry()
    for m in methods where services.contains(m.service) {
      report.operationCount += 1
      let short = m.service.split(separator: ".").last.map(String.init) ?? m.service
      let base = OperationNaming.kebab(Array(m.method))
      var e = Endpoint(
        name: names.claim(several ? OperationNaming.kebab(Array(short)) + "." + base : base),
        options: .grpc(GRPCOptions(service: m.service, method: m.method, schema: schema)))
      e.description =
        "\(m.shape.replacing("_", with: " ")) call \(m.service)/\(m.method): \(m.requestType) -> \(m.responseType)"
      if m.shape == "unary" || m.shape == "server_streaming" {
        for field in m.requestTemplate.objectMembers ?? [] {
          e.params.append(Param(name: field.key, location: .message, type: paramType(field.value)))
        }
      } else {
        e.description! += "; send request messages as JSON lines on stdin"
      }
      report.api.endpoints.append(e)
    }
    if !(methods.count == report.operationCount) {
      report.note("the reflection and health services were left out")
    }
    return report
  }

  /// `classnotes.v1.ClassNotesAPI` -> `classnotes`; a service without a package -> its kebab name.
  static func defaultName(service: String) -> String {
    let parts = service.split(separator: ".")
    let raw = parts.count > 1 ? String(parts[0]) : service
    let name = OperationNaming.kebab(Array(raw))
    return name.isEmpty ? "grpc" : name
  }

  static func paramType(_ value: JSONValue) -> ParamType {
    switch value {
    case .string: .string
    case .number(let n): n.contains(".") || n.contains("e") ? .number : .integer
    case .bool: .boolean
    case .array: .array
    case .object, .null: .json
    }
  }
}
