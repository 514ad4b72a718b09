import APXServing
import GraphQL
import HTTPTypes
import Hummingbird

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `POST /api/v2/graphql`: the books GraphQL API (`BooksGraphQLSchema`), strict as GraphQL over
/// HTTP servers are. The request must be `Content-Type: application/json` (415) holding an
/// object with a string `query`, an optional object `variables` and an optional string
/// `operationName` (else 400); a body over 1 MiB is 413. With `Accept:
/// application/graphql-response+json` a request that fails before execution (a syntax or
/// validation error) is answered 400 in that media type; with `application/json` every GraphQL
/// answer is 200. With `Accept: text/event-stream` the answer is GraphQL over SSE
/// (`GraphQLEventStream`), which is how a subscription is served over HTTP. Introspection is
/// allowed. Bearer auth applies as on the rest of `/api/v2`.
struct GraphQLRoutes: Sendable {
  static let maxBodyBytes = 1024 * 1024
  static let responseType = "application/graphql-response+json"

  let schema: GraphQLSchema

  init(imports: ImportStore, options: DemoServerOptions) throws {
    schema = try BooksGraphQLSchema.make(imports: imports, options: options)
  }

  func register(on api: RouterGroup<ServerRequestContext>) {
    api.post("graphql") { request, _ in await handle(request) }
  }

  private func handle(_ request: Request) async -> Response {
    var request = request
    let accept = request.headers[.accept]?.lowercased() ?? "*/*"
    let modern = accept.contains(Self.responseType)
    // GraphQL over SSE when the client asks for an event stream rather than a JSON answer (a
    // client that takes either, as apx's ad-hoc calls do, gets JSON).
    let eventStream = accept.contains("text/event-stream") && !modern && !accept.contains("application/json")
    guard
      modern || eventStream || accept.contains("application/json") || accept.contains("*/*")
        || accept.contains("application/*")
    else {
      return failure("Accept must allow application/graphql-response+json or application/json", .notAcceptable, modern)
    }
    let type = request.headers[.contentType]?.lowercased() ?? ""
    guard type.split(separator: ";").first?.trimmingSpaces() == "application/json" else {
      return failure("Content-Type must be application/json", .unsupportedMediaType, modern)
    }
    let body: ByteBuffer
    do {
      body = try await request.collectBody(upTo: Self.maxBodyBytes)
    } catch {
      return failure("the body is larger than 1 MiB", .contentTooLarge, modern)
    }
    let graphQLRequest: GraphQLRequest
    do {
      graphQLRequest = try JSONDecoder().decode(GraphQLRequest.self, from: Data(body.readableBytesView))
    } catch {
      return failure(
        "the body must be a JSON object with a string \"query\", an object \"variables\" and a string \"operationName\"",
        .badRequest, modern)
    }
    // The phases run one by one: a request that fails before execution (syntax, validation,
    // variables) is a request error (400 in the newer media type); once execution starts the
    // answer is 200 with "data", null when a non-null root field failed.
    let document: Document
    do {
      document = try parse(source: Source(body: graphQLRequest.query, name: "GraphQL request"))
    } catch let error as GraphQLError {
      return answer(GraphQLResult(errors: [error]), status: modern ? .badRequest : .ok, modern: modern)
    } catch {
      return failure("\(error)", .badRequest, modern)
    }
    let invalid = validate(schema: schema, ast: document)
    guard invalid.isEmpty else {
      return answer(GraphQLResult(errors: invalid), status: modern ? .badRequest : .ok, modern: modern)
    }
    let subscription = document.definitions.contains {
      guard let operation = $0 as? OperationDefinition else { return false }
      return operation.operation == .subscription
        && (graphQLRequest.operationName == nil || operation.name?.value == graphQLRequest.operationName)
    }
    if eventStream { return GraphQLEventStream.answer(graphQLRequest, subscription: subscription, schema: schema) }
    if subscription {
      return failure(
        "a subscription is a stream: ask for text/event-stream, or subscribe over WebSocket", .badRequest, modern)
    }
    var result: GraphQLResult
    do {
      result = try await execute(
        schema: schema, documentAST: document, rootValue: (), context: (),
        variableValues: graphQLRequest.variables, operationName: graphQLRequest.operationName)
    } catch {
      result = GraphQLResult(errors: [GraphQLError(message: "\(error)")])
    }
    let executed = result.data != nil || result.errors.contains { !$0.path.elements.isEmpty }
    if result.data == nil, executed { result.data = .null }
    let status: HTTPResponse.Status = modern && !executed ? .badRequest : .ok
    return answer(result, status: status, modern: modern)
  }

  private func failure(_ message: String, _ status: HTTPResponse.Status, _ modern: Bool) -> Response {
    answer(GraphQLResult(errors: [GraphQLError(message: message)]), status: status, modern: modern)
  }

  private func answer(_ result: GraphQLResult, status: HTTPResponse.Status, modern: Bool) -> Response {
    let bytes = (try? GraphQLJSONEncoder().encode(result)).map { Array($0) } ?? Array(#"{"errors":[]}"#.utf8)
    let contentType = (modern ? Self.responseType : "application/json") + "; charset=utf-8"
    return Response(
      status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
