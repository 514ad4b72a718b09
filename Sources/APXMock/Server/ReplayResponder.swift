import APXCore
import APXServing
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers requests with the exchanges of recorded HTTP archives (`apx mock --replay`): the
/// recorded answer of the matching request, or 404 naming the nearest recorded request.
/// `POST /__apx/reset` starts every sequence of repeated requests again. An event stream
/// recorded with its timing is sent event by event, spaced as recorded, unless `paced` is false.
struct ReplayResponder: HTTPResponder {
  let replay: HARReplay
  let report: @Sendable (String) -> Void
  var paced = true

  func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
    var request = request
    guard let body = try await RequestBody.collect(&request, context: context) else {
      return RequestBody.response(RequestBody.tooLargeAnswer(limit: context.maxUploadSize))
    }
    let (path, query) = HARReader.pathAndQuery(of: request.uri.description)
    let method = request.method.rawValue
    if method == "POST", path == "/__apx/reset" {
      replay.reset()
      return Response(status: .noContent)
    }
    let answer: MockAnswer
    switch replay.answer(method: method, path: path, query: query, body: body) {
    case .recorded(let exchange) where paced && !exchange.eventTimes.isEmpty:
      return Self.pacedEvents(exchange)
    case .recorded(let exchange):
      answer = MockAnswer(
        status: exchange.status, headers: exchange.headers.map { ($0.name, $0.value) }, body: .bytes(exchange.body))
    case .unmatched(let nearest):
      // A credential in the query is not repeated in the answer or the log line.
      let shownQuery = query.map { $0.name + "=" + (CredentialParams.isCredential($0.name) ? "***" : $0.value) }
      let asked = method + " " + path + (shownQuery.isEmpty ? "" : "?" + shownQuery.joined(separator: "&"))
      let detail =
        nearest.map { "\(asked) matches no recorded request; the nearest is \($0.requestLine) (\($0.source))" }
        ?? "\(asked) matches no recorded request: the archives hold none"
      report("apx mock: not recorded: \(asked)")
      answer = MockAnswer.problem(404, title: "no recorded request matches", detail: detail)
    }
    return RequestBody.response(answer)
  }

  /// A recorded event stream, each event sent when it arrived in the recording.
  static func pacedEvents(_ exchange: HARExchange) -> Response {
    var headers = HTTPFields()
    for field in exchange.headers {
      if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
    }
    let pieces = TimedEventStream.pieces(exchange.body, times: exchange.eventTimes)
    return Response(
      status: HTTPResponse.Status(code: exchange.status), headers: headers,
      body: ResponseBody { writer in
        let clock = ContinuousClock()
        let start = clock.now
        for piece in pieces {
          try await clock.sleep(until: start.advanced(by: .microseconds(Int64(piece.due * 1000))))
          try await writer.write(ByteBuffer(bytes: piece.bytes))
        }
        try await writer.finish(nil)
      })
  }
}
