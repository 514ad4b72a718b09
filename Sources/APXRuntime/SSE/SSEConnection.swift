import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// One connection of an SSE watch: sends the request, checks the answer, and
/// feeds the body to the parser chunk by chunk until the stream ends or a stop
/// condition is met. Transport failures are returned (the watch decides
/// whether to reconnect); the sink's and the stop conditions' errors are thrown.
struct SSEConnection: Sendable {
  /// How a connection ended.
  enum End: Sendable {
    /// A stop condition was met, the server answered 204, or a stream without
    /// `until_event` ended: the watch is over.
    case finished(status: Int, headers: [HeaderField])
    /// The server answered 401: fresh credentials may help.
    case unauthorized(APXError, deliveredEvents: Bool)
    /// Dropped, refused or failed: worth reconnecting.
    case interrupted(reason: String, error: APXError?, deliveredEvents: Bool)
  }

  let session: HTTPSession
  let plan: HTTPRequestPlan
  let mask: SecretMask
  let attempt: Int
  /// `API.ENDPOINT`, for messages.
  let endpointName: String
  /// The endpoint declares `until_event`: a stream that ends without one was cut short.
  let endsWithEvent: Bool

  /// Largest error body kept for the message of a failed connection.
  static let errorBodyLimit = 64 * 1024

  func run(
    parser: inout SSEParser, schedule: inout SSEReconnectSchedule, delivery: inout SSEDelivery,
    sink: any CallEventSink, deadline: NIODeadline
  ) async throws -> End {
    try sink.receive(
      .requestSent(method: plan.method, url: mask.mask(plan.url), headers: mask.mask(plan.headers), attempt: attempt))
    let response: HTTPClientResponse
    do {
      response = try await session.send(plan, deadline: deadline)
    } catch {
      try Task.checkCancellation()
      let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: nil)
      // A malformed URL or a bad CA file stays bad however often we reconnect.
      if mapped.status == .usage { throw mapped }
      return .interrupted(reason: mapped.message, error: mapped, deliveredEvents: false)
    }
    let status = Int(response.status.code)
    let headers = response.headers.map { HeaderField($0.name, $0.value) }
    try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: mask.mask(headers)))

    // The specification's "no more events": stop without reconnecting.
    if status == 204 { return .finished(status: status, headers: headers) }
    guard (200..<300).contains(status) else {
      let error = RESTCall.statusError(
        status: status, body: await Self.errorBody(response), plan: plan, expected: nil, mask: mask)
      if status == 401 { return .unauthorized(error, deliveredEvents: false) }
      if Self.isPermanent(status) { throw error }
      let reason = "\(endpointName) answered \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)"
      return .interrupted(reason: reason, error: error, deliveredEvents: false)
    }
    if let type = response.headers.first(name: "content-type"), !type.lowercased().hasPrefix("text/event-stream") {
      throw APXError(
        .expectation, "\(endpointName) answered with \(type), not an event stream",
        hint: "check the endpoint's path, or declare it as kind \"rest\" if it is not a server-sent events stream")
    }

    var deliveredEvents = false
    var batch: [SSEEvent] = []
    var iterator = response.body.makeAsyncIterator()
    while true {
      let chunk: ByteBuffer?
      do {
        chunk = try await iterator.next()
      } catch {
        try Task.checkCancellation()
        let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: nil)
        return .interrupted(
          reason: "the connection dropped (\(mapped.message))", error: mapped, deliveredEvents: deliveredEvents)
      }
      guard let chunk else { break }
      // One synchronous pass over the chunk; events are handed on after it.
      batch.removeAll(keepingCapacity: true)
      parser.feed(chunk.readableBytesView) { batch.append($0) }
      if parser.exceededMaxEventSize {
        throw APXError(
          .expectation,
          "\(endpointName) sent an event larger than \(parser.maxEventSize / 1_048_576) MiB, the most apx holds for one event",
          hint: "a stream of large documents is better fetched as a REST body (apx call -o raw streams any size)")
      }
      if batch.isEmpty { continue }
      deliveredEvents = true
      schedule.eventReceived()
      for event in batch {
        if try delivery.deliver(event, to: sink) == .stop {
          try sink.receive(.batchEnd)
          return .finished(status: status, headers: headers)
        }
      }
      try sink.receive(.batchEnd)
    }
    if !endsWithEvent { return .finished(status: status, headers: headers) }
    return .interrupted(
      reason: "the stream ended before its final event", error: nil, deliveredEvents: deliveredEvents)
  }

  /// Statuses that reconnecting cannot fix: redirects (not followed for
  /// streams) and client errors other than 408 (timeout), 425 (too early)
  /// and 429 (rate limited).
  static func isPermanent(_ status: Int) -> Bool {
    (300..<500).contains(status) && ![408, 425, 429].contains(status)
  }

  /// The start of an error answer's body, for the message.
  static func errorBody(_ response: HTTPClientResponse) async -> [UInt8] {
    var body: [UInt8] = []
    do {
      for try await chunk in response.body where body.count < errorBodyLimit {
        body.append(contentsOf: chunk.readableBytesView.prefix(errorBodyLimit - body.count))
      }
    } catch {}
    return body
  }
}
