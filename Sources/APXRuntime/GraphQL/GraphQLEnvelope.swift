import APXCore
import APXGraphQL

/// A GraphQL request as GraphQL over HTTP and graphql-transport-ws carry it:
/// `{"query", "variables", "operationName"}`. The document is parsed and its operation picked
/// when the call is made ready, so a bad document is exit 2 before anything is sent.
struct GraphQLEnvelope: Sendable {
  let document: GraphQLDocument
  let operation: GraphQLDocument.Operation
  /// `API.ENDPOINT` or "the GraphQL call", for messages.
  let name: String

  /// Parses the endpoint's document and picks its operation.
  init(_ request: CallRequest) throws {
    name = request.targetIsURL ? "the GraphQL call" : "\(request.api.name).\(request.endpoint.name)"
    guard let options = request.endpoint.graphql else {
      throw APXError(.usage, "\(name) is \(request.endpoint.kind.withArticle) endpoint, not GraphQL")
    }
    document = try GraphQLDocument(
      parsing: try GraphQLCall.documentText(request, options: options), origin: name,
      maxSize: options.maxDocumentSize ?? GraphQLDocument.defaultMaxSize)
    operation = try document.operation(named: options.operationName)
  }

  var isSubscription: Bool { operation.kind == .subscription }

  /// The request object for `plan`, whose body holds the variables (a JSON object built from
  /// the call's items, or none); undeclared or missing variables are refused.
  func request(variablesIn body: RequestBody) throws -> JSONValue {
    var variables: [JSONMember] = []
    switch body {
    case .none: break
    case .bytes(let bytes, _):
      let parsed: JSONValue
      do {
        parsed = try JSONParser.parse(bytes)
      } catch {
        throw APXError(.usage, "\(name): the variables are not valid JSON", underlying: error)
      }
      guard case .object(let members) = parsed else {
        throw APXError(
          .usage, "\(name): the variables must be a JSON object, not \(parsed.typeName)",
          hint: "give them as items (id=1, count:=3) or -d '{\"id\": \"1\"}'")
      }
      variables = members
    default:
      throw APXError(
        .usage, "\(name): GraphQL variables are JSON", hint: "give them as items or -d JSON text, not a form or a file")
    }
    try operation.check(variables: variables.map(\.key), origin: name)
    var envelope = [JSONMember("query", .string(document.text))]
    if !variables.isEmpty { envelope.append(JSONMember("variables", .object(variables))) }
    if let operationName = operation.name { envelope.append(JSONMember("operationName", .string(operationName))) }
    return .object(envelope)
  }

  /// Makes `plan` the POST of GraphQL over HTTP: the request object as its JSON body, and
  /// `accept` unless the user gave an `Accept` header.
  func apply(to plan: inout HTTPRequestPlan, accept: String) throws {
    plan.body = .bytes(Array(try request(variablesIn: plan.body).compactJSON.utf8), contentType: "application/json")
    plan.headers.removeAll { $0.name.lowercased() == "content-type" }
    plan.headers.append(HeaderField("Content-Type", "application/json"))
    if plan.header("Accept") == nil { plan.setHeader("Accept", accept) }
  }
}

extension GraphQLEnvelope {
  /// `api` with each GraphQL endpoint whose operation is a subscription marked so
  /// (`GraphQLOptions.subscription`): a recipe step that calls one watches a stream. A document
  /// that does not parse is left unmarked; calling it reports why.
  static func markingSubscriptions(_ api: APIDefinition) -> APIDefinition {
    var api = api
    for index in api.endpoints.indices {
      guard case .graphql(let route, var options) = api.endpoints[index].options,
        let text = try? GraphQLCall.documentText(api: api, endpoint: api.endpoints[index].name, options: options),
        let document = try? GraphQLDocument(parsing: text, origin: api.endpoints[index].name),
        let operation = try? document.operation(named: options.operationName)
      else { continue }
      options.subscription = operation.kind == .subscription
      api.endpoints[index].options = .graphql(route, options)
    }
    return api
  }
}
