import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// What one SSE watch carries from connection to connection: the parser (and
/// so the last event id and the server's `retry:`), the reconnection schedule,
/// the delivery (counts, seen ids, stop conditions), and how the latest
/// connection ended. Used by one watch task at a time, one connection after another.
final class SSEStreamState: @unchecked Sendable {
  var parser = SSEParser()
  var schedule: SSEReconnectSchedule
  var delivery: SSEDelivery
  /// The latest connection handed at least one event on.
  var deliveredEvents = false
  /// Why the latest connection was cut short, for the `.reconnecting` event.
  var interruption: String?
  /// The error behind that, if any (nil: the stream just ended early).
  var interruptionError: APXError?
  /// The mask of the latest connection's secrets.
  var mask = SecretMask()
  /// The server's `retry:` asked for less than the floor (milliseconds), not yet said.
  var retryBelowFloor: Int?
  /// The note about the floor was given: it is given once per watch, not per reconnection.
  var retryFloorNoted = false
  /// Where a stream handed over by the REST transport was finally answered, after redirects:
  /// reconnections go there (nil: the request's own URL).
  var redirectedTo: String?

  init(schedule: SSEReconnectSchedule, delivery: SSEDelivery) {
    self.schedule = schedule
    self.delivery = delivery
  }
}

/// The SSE transport: one connection of a watch. Sends the request (with
/// `Last-Event-ID` once an event had an id), checks the answer, and feeds the
/// body to the stream's parser chunk by chunk until the stream ends or a stop
/// condition is met. A connection that drops, fails or answers a retryable
/// status throws an `AttemptFailure` with an outcome (the watch reconnects); a
/// 401 throws one with refused credentials (the auth layer refreshes); what
/// reconnecting cannot fix throws one without an outcome. The sink's and the
/// stop conditions' errors are thrown as they are.
struct SSEConnection: Transport {
  let session: HTTPSession
  let environment: [String: String]
  /// `API.ENDPOINT`, for messages.
  let endpointName: String
  /// The endpoint declares `until_event`: a stream that ends without one was cut short.
  let endsWithEvent: Bool
  /// The user's own `-H` headers (an `Accept` among them wins).
  let userHeaders: [HeaderField]
  let stream: SSEStreamState
  /// A GraphQL subscription: the request is the GraphQL request's POST.
  var graphQL: GraphQLEnvelope? = nil

  /// Largest error body kept for the message of a failed connection.
  static let errorBodyLimit = 64 * 1024

  func resolve(_ request: CallRequest, credentials: Credentials) async throws -> HTTPAttempt {
    var attempt = try await HTTPAttempt.resolve(request, environment: environment, credentials: credentials)
    if let url = stream.redirectedTo, url != attempt.plan.url {
      // As RESTCall followed it: a 307 keeps method and body and drops credentials on another origin.
      attempt.plan = try RESTCall.redirected(attempt.plan, status: 307, location: url)
    }
    if let graphQL { try graphQL.apply(to: &attempt.plan, accept: "text/event-stream") }
    Self.prepareStreamHeaders(&attempt.plan, userHeaders: userHeaders)
    return attempt
  }

  /// A stream is only read: reconnecting cannot apply anything twice.
  func retrySafety(of attempt: HTTPAttempt) -> AttemptSafety { .safe }

  func presentedToken(in attempt: HTTPAttempt) -> String? { AuthApplier.bearerToken(in: attempt.plan) }

  /// Asks for an event stream and no cached copy; a user's own `-H Accept:` wins.
  static func prepareStreamHeaders(_ plan: inout HTTPRequestPlan, userHeaders: [HeaderField]) {
    if !userHeaders.contains(where: { $0.name.lowercased() == "accept" }) {
      plan.setHeader("Accept", "text/event-stream")
    }
    if plan.header("Cache-Control") == nil { plan.setHeader("Cache-Control", "no-cache") }
  }

  func send(_ attempt: HTTPAttempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome {
    var plan = attempt.plan
    let mask = attempt.mask
    begin(mask: mask)
    if !stream.parser.lastEventID.isEmpty { plan.setHeader("Last-Event-ID", stream.parser.lastEventID) }
    if let proxy = session.proxy(for: plan.url) { try sink.receive(.proxy(mask.mask(proxy.display))) }
    plan = session.cookies.attach(to: plan)
    try sink.receive(
      .requestSent(
        method: plan.method, url: mask.mask(plan.url), headers: mask.mask(plan.headersSent), attempt: context.number))
    try sink.receive(.secrets(mask))
    if let body = RequestBodySummary(plan.body, mask: mask) { try sink.receive(.requestBody(body)) }
    let response: HTTPClientResponse
    do {
      response = try await session.send(plan, deadline: context.deadline)
    } catch {
      try Task.checkCancellation()
      let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: nil)
      // A malformed URL, a bad CA file or a certificate that fails verification stays so however often we reconnect.
      guard mapped.status != .usage, let outcome = NetworkErrorMapper.retryOutcome(of: error, mapped: mapped) else {
        throw AttemptFailure(mapped)
      }
      throw interrupted(mapped.message, error: mapped, outcome: outcome)
    }
    let status = Int(response.status.code)
    let headers = response.headers.map { HeaderField($0.name, $0.value) }
    session.cookies.store(headers, from: plan.url)
    try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: mask.mask(headers)))

    // The specification's "no more events": stop without reconnecting.
    if status == 204 { return CallOutcome(status: status, headers: headers) }
    guard (200..<300).contains(status) else {
      let error = RESTCall.statusError(
        status: status, body: await Self.errorBody(response), plan: plan, expected: nil, mask: mask)
      if status == 401 { throw AttemptFailure(error, outcome: .status(401), credentialsRejected: true) }
      if Self.isPermanent(status) { throw AttemptFailure(error) }
      let reason = "\(endpointName) answered \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)"
      throw interrupted(reason, error: error, outcome: .status(status))
    }
    if let type = response.headers.first(name: "content-type"), !type.lowercased().hasPrefix("text/event-stream") {
      throw AttemptFailure(
        APXError(
          .expectation, "\(endpointName) answered with \(type), not an event stream",
          hint: "check the endpoint's path, or declare it as kind \"rest\" if it is not a server-sent events stream"))
    }
    return try await read(response.body, url: plan.url, status: status, headers: headers, sink: sink)
  }

  /// Follows an answer the REST transport found to be an event stream: its head is already
  /// reported and checked, its body not read yet.
  func follow(_ open: OpenEventStream, sink: any CallEventSink) async throws -> CallOutcome {
    begin(mask: open.mask)
    return try await read(
      open.response.body, url: open.plan.url, status: Int(open.response.status.code),
      headers: open.response.headers.map { HeaderField($0.name, $0.value) }, sink: sink)
  }

  /// Resets what the stream state says about the latest connection.
  private func begin(mask: SecretMask) {
    stream.mask = mask
    stream.delivery.graphQL?.mask = mask
    stream.deliveredEvents = false
    stream.interruption = nil
    stream.interruptionError = nil
  }

  /// Feeds an event stream's body to the parser until it ends or a stop condition is met.
  private func read(
    _ body: HTTPClientResponse.Body, url: String, status: Int, headers: [HeaderField], sink: any CallEventSink
  ) async throws -> CallOutcome {
    var batch: [SSEEvent] = []
    var iterator = body.makeAsyncIterator()
    while true {
      let chunk: ByteBuffer?
      do {
        chunk = try await iterator.next()
      } catch {
        try Task.checkCancellation()
        let mapped = NetworkErrorMapper.map(error, url: url, timeout: nil)
        throw interrupted("the connection dropped (\(mapped.message))", error: mapped, outcome: .connectionFailure)
      }
      guard let chunk else { break }
      // One synchronous pass over the chunk; events are handed on after it.
      batch.removeAll(keepingCapacity: true)
      stream.parser.feed(chunk.readableBytesView) { batch.append($0) }
      if stream.parser.exceededMaxEventSize {
        throw APXError(
          .expectation,
          "\(endpointName) sent an event larger than \(stream.parser.maxEventSize / 1_048_576) MiB, the most apx holds for one event",
          hint: "a stream of large documents is better fetched as a REST body (apx call -o raw streams any size)")
      }
      if batch.isEmpty { continue }
      // Only a new event proves the stream moved on: a server that resends old ids after a
      // reconnection (dropped as duplicates) must count as failing, so backoff and
      // max_failures apply instead of reconnecting ten times a second for ever.
      let deliveredBefore = stream.delivery.delivered
      defer {
        if stream.delivery.delivered > deliveredBefore {
          stream.deliveredEvents = true
          stream.schedule.eventReceived()
        }
      }
      for event in batch {
        if try stream.delivery.deliver(event, to: sink) == .stop {
          try sink.receive(.batchEnd)
          return CallOutcome(status: status, headers: headers)
        }
      }
      try sink.receive(.batchEnd)
    }
    if !endsWithEvent {
      // Without until_event apx cannot tell a finished stream from a cut one, and reconnecting
      // a finite stream would never end: stop, but say so rather than end silently.
      try sink.receive(
        .note(
          "\(endpointName): the server closed the stream after \(stream.delivery.delivered) event"
            + "\(stream.delivery.delivered == 1 ? "" : "s"); not reconnecting, since no final event is declared "
            + "(declare until_event in the registry, or pass --until-event NAME, to follow it to that event)"))
      return CallOutcome(status: status, headers: headers)
    }
    throw interrupted(
      "the stream ended before its final event", error: nil, outcome: .connectionFailure,
      message: "\(endpointName): the stream ended before its final event")
  }

  /// Records why the connection was cut short and the failure that says so.
  private func interrupted(_ reason: String, error: APXError?, outcome: RetryOutcome, message: String? = nil)
    -> AttemptFailure
  {
    stream.interruption = reason
    stream.interruptionError = error
    return AttemptFailure(error ?? APXError(.network, message ?? reason), outcome: outcome)
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
