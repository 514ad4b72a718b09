import APXCore
import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

/// Hands every request to a forwarder (`apx mock --record`) and streams its answer back as it
/// arrives, so that an event stream flows live through the proxy.
struct ProxyResponder: HTTPResponder {
  let forward: @Sendable (ProxiedRequest) async -> ProxiedResponse

  func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
    var request = request
    guard let body = try await RequestBody.collect(&request, context: context) else {
      return RequestBody.response(RequestBody.tooLargeAnswer(limit: context.maxUploadSize))
    }
    let headers = request.headers.map { HeaderField($0.name.rawName, $0.value) }
    let answer = await forward(
      ProxiedRequest(
        method: request.method.rawValue, target: request.uri.description, headers: headers,
        body: body))
    var fields = HTTPFields()
    for field in answer.headers {
      if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
    }
    return Response(
      status: HTTPResponse.Status(code: answer.status), headers: fields,
      body: ResponseBody { writer in
        let sink = WriterBox(writer)
        try await answer.body { bytes in try await sink.write(bytes) }
        try await sink.finish()
      })
  }
}

/// The response body writer, used from the forwarder's `write` calls, which come one at a time.
private final class WriterBox: @unchecked Sendable {
  var writer: any ResponseBodyWriter

  init(_ writer: any ResponseBodyWriter) { self.writer = writer }

  func write(_ bytes: [UInt8]) async throws { try await writer.write(ByteBuffer(bytes: bytes)) }
  func finish() async throws { try await writer.finish(nil) }
}
