import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One HTTP request whose answer is read whole (a JSON-RPC or GraphQL document, not a stream):
/// the request events on the sink, the exchange with its network errors mapped, the cookies
/// stored and the response head reported. The transports read the body themselves from there.
struct WholeAnswerExchange {
  let status: Int
  let headers: [HeaderField]
  let body: [UInt8]
  /// The answer's `Retry-After`, for a failure's retry.
  let retryAfter: String?

  /// Sends `attempt`'s plan with `session` and reads the answer up to `limit` bytes.
  /// - Parameters:
  ///   - what: the answer's kind, for the message when it is too large (`JSON-RPC`, `GraphQL`).
  ///   - timeout: the call's time limit, for messages.
  static func send(
    _ attempt: HTTPAttempt, session: HTTPSession, context: AttemptContext, sink: any CallEventSink,
    timeout: Double?, limit: Int, what: String
  ) async throws -> WholeAnswerExchange {
    let plan = session.cookies.attach(to: attempt.plan)
    let mask = attempt.mask
    if let proxy = session.proxy(for: plan.url) { try sink.receive(.proxy(mask.mask(proxy.display))) }
    try sink.receive(
      .requestSent(
        method: plan.method, url: mask.mask(plan.url), headers: mask.mask(plan.headersSent), attempt: context.number))
    try sink.receive(.secrets(mask))
    if let body = RequestBodySummary(plan.body, mask: mask) { try sink.receive(.requestBody(body)) }
    let response: HTTPClientResponse
    let body: [UInt8]
    do {
      response = try await session.send(plan, deadline: context.deadline)
      body = try await read(response, limit: limit, what: what)
    } catch let error as APXError {
      throw AttemptFailure(error)
    } catch {
      let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: timeout)
      throw AttemptFailure(mapped, outcome: NetworkErrorMapper.retryOutcome(of: error, mapped: mapped))
    }
    let status = Int(response.status.code)
    let headers = response.headers.map { HeaderField($0.name, $0.value) }
    session.cookies.store(headers, from: plan.url)
    try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: mask.mask(headers)))
    return WholeAnswerExchange(
      status: status, headers: headers, body: body, retryAfter: response.headers.first(name: "retry-after"))
  }

  /// The whole body, or an error when it is larger than `limit`.
  static func read(_ response: HTTPClientResponse, limit: Int, what: String) async throws -> [UInt8] {
    var body: [UInt8] = []
    for try await chunk in response.body {
      guard body.count + chunk.readableBytes <= limit else {
        throw APXError(
          .expectation, "the \(what) answer is larger than \(limit / 1_048_576) MB",
          hint: "\(what) answers are read whole; ask the server for less")
      }
      body.append(contentsOf: chunk.readableBytesView)
    }
    return body
  }
}
