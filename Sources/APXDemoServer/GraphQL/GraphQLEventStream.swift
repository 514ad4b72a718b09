import GraphQL
import HTTPTypes
import Hummingbird
import NIOCore

/// GraphQL over SSE, "distinct connections" mode: the answer to a POST that accepts
/// `text/event-stream`. A subscription's results are `next` events (data: the execution result
/// as JSON), a query's or mutation's one result is one; `complete` ends the stream. A
/// subscription the server refuses (an unknown job) is one `next` with its errors, then `complete`.
enum GraphQLEventStream {
  static func answer(_ request: GraphQLRequest, subscription: Bool, schema: GraphQLSchema) -> Response {
    Response(
      status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache"],
      body: ResponseBody { writer in
        if subscription {
          let outcome: Result<AsyncThrowingStream<GraphQLResult, any Error>, GraphQLErrors>
          do {
            outcome = try await graphqlSubscribe(
              schema: schema, request: request.query, variableValues: request.variables,
              operationName: request.operationName)
          } catch {
            outcome = .failure(GraphQLErrors([error as? GraphQLError ?? GraphQLError(message: "\(error)")]))
          }
          switch outcome {
          case .failure(let errors):
            try await writer.write(next(GraphQLResult(errors: errors.errors)))
          case .success(let results):
            for try await result in results { try await writer.write(next(result)) }
          }
        } else {
          let result: GraphQLResult
          do {
            result = try await graphql(
              schema: schema, request: request.query, variableValues: request.variables,
              operationName: request.operationName)
          } catch {
            result = GraphQLResult(errors: [error as? GraphQLError ?? GraphQLError(message: "\(error)")])
          }
          try await writer.write(next(result))
        }
        try await writer.write(ByteBuffer(string: "event: complete\ndata:\n\n"))
        try await writer.finish(nil)
      })
  }

  private static func next(_ result: GraphQLResult) -> ByteBuffer {
    let json = (try? GraphQLJSONEncoder().encode(result)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    return ByteBuffer(string: "event: next\ndata: \(json)\n\n")
  }
}
