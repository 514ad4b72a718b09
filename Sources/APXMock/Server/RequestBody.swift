import APXCore
import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

/// A request's body, collected whole up to the server's upload cap, for the mock's responders.
enum RequestBody {
  /// The body, or nil when it is over `context.maxUploadSize` (Hummingbird throws then; its
  /// router would answer 413, but a bare responder answered 500).
  static func collect(_ request: inout Request, context: ServerRequestContext) async throws -> [UInt8]? {
    do {
      return Array(try await request.collectBody(upTo: context.maxUploadSize).readableBytesView)
    } catch is NIOTooManyBytesError {
      return nil
    }
  }

  /// The mock's 413 for a body over `limit` bytes, as a problem document.
  static func tooLargeAnswer(limit: Int) -> MockAnswer {
    MockAnswer.problem(
      413, title: "Content Too Large",
      detail: "the request body is over \(limit / 1_048_576) MiB, the most apx mock accepts")
  }

  /// `answer` as Hummingbird's response (a byte body; an event stream is the responders' own).
  static func response(_ answer: MockAnswer) -> Response {
    var headers = HTTPFields()
    for (name, value) in answer.headers {
      if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
    }
    let bytes: [UInt8]
    if case .bytes(let body) = answer.body { bytes = body } else { bytes = [] }
    return Response(
      status: HTTPResponse.Status(code: answer.status), headers: headers,
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
  }
}
