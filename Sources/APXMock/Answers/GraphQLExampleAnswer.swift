import APXCore
import APXGraphQL

/// GraphQL over HTTP, and its subscriptions over graphql-transport-ws and GraphQL over SSE: a
/// request is answered by the registry endpoint that declares its operation (by name, or the
/// same anonymous document) with that endpoint's first declared example. A query's or a
/// mutation's example is its `data`; a subscription's is the list of its results' `data`, sent
/// in order, then the subscription completes. The mock has no schema to execute, so an endpoint
/// without an example is answered with a GraphQL error that says so (and named at start).
struct GraphQLExampleAnswer {
  /// The API's GraphQL endpoints served at the request's path.
  let endpoints: [Endpoint]
  let apiName: String

  /// What a request asks for: its operation, and the endpoint that declares it.
  enum Lookup {
    case found(Endpoint, GraphQLDocument.Operation.Kind)
    case refused(String)
  }

  /// The endpoint whose document holds the operation that `query` runs (`operationName`, else
  /// its one operation).
  func lookup(query: String, operationName: String?) -> Lookup {
    let asked: GraphQLDocument.Operation
    do {
      asked = try GraphQLDocument(parsing: query, origin: "the request").operation(named: operationName)
    } catch {
      return .refused(error.message)
    }
    for endpoint in endpoints {
      guard case .graphql(_, let options) = endpoint.options,
        let declared = try? GraphQLDocument(parsing: options.document, origin: endpoint.name)
          .operation(named: options.operationName)
      else { continue }
      let same =
        asked.name.map { $0 == declared.name }
        ?? (declared.name == nil && Self.squeezed(query) == Self.squeezed(options.document))
      if same, declared.kind == asked.kind { return .found(endpoint, asked.kind) }
    }
    let named = asked.name.map { "the \(asked.kind.rawValue) \($0)" } ?? "this anonymous \(asked.kind.rawValue)"
    return .refused("apx mock: no GraphQL endpoint of \(apiName) declares \(named)")
  }

  /// The results the endpoint declares, in order: one for a query or mutation, each item of the
  /// list for a subscription; nil when it declares no example.
  static func results(of endpoint: Endpoint, kind: GraphQLDocument.Operation.Kind) -> [JSONValue]? {
    let response = endpoint.responses.first { ($0.code ?? 200) / 100 == 2 } ?? endpoint.responses.first
    guard let example = response?.examples.first?.value else { return nil }
    if kind == .subscription, case .array(let items) = example { return items }
    return [example]
  }

  /// The endpoints that declare no example, which the mock can answer only with an error.
  static func withoutExamples(_ endpoints: [Endpoint]) -> [Endpoint] {
    endpoints.filter { endpoint in
      endpoint.kind == .graphql && results(of: endpoint, kind: .query) == nil
    }
  }

  /// The answer to a GraphQL-over-HTTP request (POST JSON, or GET with `query=`): JSON for a
  /// query or mutation, a `next` event per result then `complete` for a subscription.
  func answer(_ request: MockRequest) -> MockAnswer {
    let query: String?
    let operationName: String?
    if request.method == "GET" {
      query = request.query.first { $0.name == "query" }?.value
      operationName = request.query.first { $0.name == "operationName" }?.value
    } else {
      query = request.jsonBody?["query"]?.stringValue
      operationName = request.jsonBody?["operationName"]?.stringValue
    }
    guard let query else {
      return Self.errors(400, "a GraphQL request carries its document in \"query\" (a JSON body, or ?query= on GET)")
    }
    switch lookup(query: query, operationName: operationName) {
    case .refused(let why):
      return Self.errors(400, why)
    case .found(let endpoint, let kind):
      guard let results = Self.results(of: endpoint, kind: kind) else {
        return Self.errors(200, Self.noExample(apiName, endpoint))
      }
      if kind == .subscription {
        var events = results.enumerated().map { i, data in
          MockEvent(id: i + 1, type: "next", data: Self.result(data).compactJSON)
        }
        events.append(MockEvent(id: results.count + 1, type: "complete", data: ""))
        return MockAnswer(
          status: 200, headers: [("content-type", "text/event-stream"), ("cache-control", "no-cache")],
          body: .events(events, dropEvery: 0, mode: .close))
      }
      return .json(200, Self.result(results[0]))
    }
  }

  /// `{"data": DATA}`: one execution result.
  static func result(_ data: JSONValue) -> JSONValue { .object([JSONMember("data", data)]) }

  /// `{"errors": [{"message": ...}]}` with `status`.
  static func errors(_ status: Int, _ message: String) -> MockAnswer {
    .json(status, .object([JSONMember("errors", errorList(message))]))
  }

  static func errorList(_ message: String) -> JSONValue {
    .array([.object([JSONMember("message", .string(message))])])
  }

  static func noExample(_ api: String, _ endpoint: Endpoint) -> String {
    "apx mock: \(api).\(endpoint.name) declares no example answer, and the mock has no schema to execute: "
      + "give its responses an example"
  }

  /// The document without its whitespace, so that layout does not tell two documents apart.
  private static func squeezed(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }
}
