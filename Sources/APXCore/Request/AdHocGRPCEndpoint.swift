/// An ad-hoc gRPC call's endpoint: `grpc://HOST:PORT/package.Service/Method` (or `grpcs://`),
/// with the schema from server reflection, a protoset or .proto files.
public enum AdHocGRPCEndpoint {
  /// `package.Service` and, when the URL names one, `Method`.
  public static func serviceAndMethod(_ url: AdHocURL) throws(APXError) -> (service: String, method: String?) {
    guard !url.pathAndQuery.contains("?") else {
      throw APXError(
        .usage, "the gRPC URL \(url.text) has a query",
        hint: "gRPC takes no query parameters: write grpc://HOST:PORT/package.Service/Method")
    }
    let parts = url.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    let names = parts.last == "" ? Array(parts.dropLast()) : Array(parts)
    guard (1...2).contains(names.count), names.allSatisfy({ !$0.isEmpty }),
      names.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } })
    else {
      throw APXError(
        .usage, "the gRPC URL \(url.text) does not name package.Service/Method",
        hint: "write grpc://HOST:PORT/package.Service/Method (apx list \(url.origin) shows them)")
    }
    return (String(names[0]), names.count == 2 ? String(names[1]) : nil)
  }

  /// The endpoint for `url`; `Name:value` items become metadata, `name=value` items request
  /// fields, and `name==value` or `name@file` items are usage errors (gRPC has neither).
  public static func make(url: AdHocURL, items: [RequestItem], schema: SchemaSource, match: BaseURLMatch? = nil)
    throws(APXError)
    -> AdHocEndpoint
  {
    let (service, method) = try serviceAndMethod(url)
    guard let method else {
      throw APXError(
        .usage, "the gRPC URL \(url.text) names a service but no method",
        hint: "add /Method (apx describe \(url.text) lists them)")
    }
    var arguments: [ParamArgument] = []
    var headers: [HeaderField] = []
    for item in items {
      switch item {
      case .header(let name, let value): headers.append(HeaderField(name.lowercased(), value))
      case .param(let argument): arguments.append(argument)
      case .query(let name, _), .filePart(let name, _):
        throw APXError(
          .usage, "a gRPC call has no query parameters or file parts (\(name))",
          hint: "set request fields with name=value or name:=json, or the whole message with -d")
      }
    }
    let api =
      match?.api
      ?? APIDefinition(
        name: url.host, environments: [NamedEnvironment(name: "adhoc", baseURL: url.origin)],
        defaultEnvironment: "adhoc", sourceFile: "")
    let endpoint = Endpoint(
      name: "\(service)/\(method)", options: .grpc(GRPCOptions(service: service, method: method, schema: schema)))
    return AdHocEndpoint(
      api: api, endpoint: endpoint, baseURL: match?.baseURL ?? url.origin,
      environmentName: match?.environmentName ?? "adhoc", arguments: arguments, headers: headers)
  }
}
