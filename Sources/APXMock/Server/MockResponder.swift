import APXCore
import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

/// Carries Hummingbird's requests to a `MockAPI` and its answers back, streaming events.
struct MockResponder: HTTPResponder {
  let mock: MockAPI

  func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
    var request = request
    let body = try await RequestBody.collect(&request, context: context)
    let incoming = MockRequest(
      method: request.method.rawValue, path: request.uri.path, query: MockRequest.queryPairs(request.uri.query),
      headers: request.headers.map { ($0.name.canonicalName, $0.value) }, body: body ?? [])
    guard body != nil else {
      let answer = RequestBody.tooLargeAnswer(limit: context.maxUploadSize)
      mock.log.append(incoming.logEntry(endpoint: nil, status: answer.status, fault: nil))
      return RequestBody.response(answer)
    }
    let answer = await mock.handle(incoming)
    var headers = HTTPFields()
    for (name, value) in answer.headers {
      if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
    }
    let status = HTTPResponse.Status(code: answer.status)
    switch answer.body {
    case .bytes:
      return RequestBody.response(answer)
    case .events(let events, let dropEvery, let mode):
      // A connection that will be cut must not be reused by the client's pool afterwards.
      if dropEvery > 0, events.count > dropEvery { headers[.connection] = "close" }
      let channel = context.channel
      let mock = self.mock
      return Response(
        status: status, headers: headers,
        body: ResponseBody { writer in
          try await writer.write(ByteBuffer(string: "retry: 100\n\n"))
          for (i, event) in events.enumerated() {
            try await writer.write(ByteBuffer(string: event.text))
            if dropEvery > 0, i + 1 == dropEvery, i + 1 < events.count {
              mock.report(
                "apx mock: fault: \(mode == .abort ? "aborted" : "dropped") the stream after event \(event.id): "
                  + "\(incoming.method) \(incoming.path)")
              // Thrown from the body, an error makes the server close the connection without
              // the response's last chunk: what a client sees when a server dies mid-stream.
              if mode == .abort { throw StreamAborted() }
              try await writer.finish(nil)
              try? await channel.close()
              return
            }
          }
          try await writer.finish(nil)
        })
    }
  }
}

/// Ends an event stream's body on purpose, so the connection is cut (`drop-mode=abort`).
struct StreamAborted: Error {}
