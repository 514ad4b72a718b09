public import APXCore
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One REST attempt, ready to send: the request with templates resolved and
/// credentials applied, and the mask that hides its secrets.
public struct HTTPAttempt: Sendable {
  public var plan: HTTPRequestPlan
  public var mask: SecretMask

  public init(plan: HTTPRequestPlan, mask: SecretMask) {
    self.plan = plan
    self.mask = mask
  }

  /// The request for `request`: templates resolved, secrets registered, then `credentials` applied.
  ///
  /// - Parameter idempotencyKey: sent as `Idempotency-Key` unless the request already has one.
  public static func resolve(
    _ request: CallRequest, environment: [String: String], credentials: Credentials, idempotencyKey: String? = nil
  ) async throws -> HTTPAttempt {
    var input = RequestBuilder.Input(values: request.values, data: request.data, headers: request.headers)
    input.boundary = "apx-" + UUID().uuidString.lowercased()
    var plan = try RequestBuilder(api: request.api, endpoint: request.endpoint, baseURL: request.baseURL).build(input)
    if let url = request.url { plan.url = url }
    if !request.targetIsURL { plan.endpointName = "\(request.api.name).\(request.endpoint.name)" }
    var mask = SecretMask(secrets: plan.secrets)
    mask.addCredentialValues(of: request.headers)
    // A credential in the body (`{"user": {"password": ...}}`, a form's `client_secret`) is
    // masked wherever it shows, an answer that echoes it included.
    switch plan.body {
    case .bytes(let bytes, let type): mask.addCredentialFields(ofBody: bytes, contentType: type)
    case .multipart(let parts, _):
      for case .field(let name, let value, _) in parts where CredentialParams.isCredential(name) { mask.add(value) }
    default: break
    }
    plan.headers = try plan.headers.map {
      HeaderField($0.name, try TemplateResolver.resolveText($0.value, environment: environment, mask: &mask))
    }
    if let idempotencyKey, plan.header("Idempotency-Key") == nil { plan.setHeader("Idempotency-Key", idempotencyKey) }
    try await credentials.apply(to: &plan, mask: &mask)
    return HTTPAttempt(plan: plan, mask: mask)
  }

  /// A request whose body was read from stdin cannot be sent twice.
  var isReplayable: Bool { if case .stdin = plan.body { false } else { true } }
}

/// The REST transport: sends one attempt, follows redirects itself (dropping
/// credentials when the origin changes), streams the body to the sink as it
/// arrives, and turns unexpected statuses into failures that carry the body.
/// Retries and 401 replays are the `Executor`'s.
public struct RESTCall: Transport {
  public let session: HTTPSession
  /// The process environment, for `${env:NAME}` templates in headers.
  public var environment: [String: String] = [:]
  /// Overall time limit of the call in seconds, for messages and the body.
  public var timeout: Double?
  /// Statuses that count as success; nil means any 2xx.
  public var expectStatus: [Int]?
  /// Sent as `Idempotency-Key` on every attempt (an `idempotency_key: true` endpoint).
  public var idempotencyKey: String?
  /// The endpoint is declared idempotent: POST and PATCH may be repeated too.
  public var idempotent = false
  public var followRedirects = true
  public var maxRedirects = 10
  /// `--max-events N`: an NDJSON / JSON Lines body stops after N lines (and so does an
  /// event stream, through the SSE layer). A single JSON body is one item.
  public var maxEvents: Int?
  /// `--until-event NAME`: stop events of an answer that is an event stream; any other
  /// answer is a usage error, since no event can end it.
  public var untilEvent: [String] = []
  /// Follows an answer that is an event stream from its open body on (the Executor passes
  /// the SSE layer); nil prints it as a body.
  var followEventStream: (@Sendable (OpenEventStream, any CallEventSink) async throws -> CallOutcome)?

  public init(
    session: HTTPSession, environment: [String: String] = [:], timeout: Double? = nil, expectStatus: [Int]? = nil,
    idempotencyKey: String? = nil, idempotent: Bool = false
  ) {
    self.session = session
    self.environment = environment
    self.timeout = timeout
    self.expectStatus = expectStatus
    self.idempotencyKey = idempotencyKey
    self.idempotent = idempotent
  }

  /// Largest error body kept for the message; the rest is dropped.
  static let errorBodyLimit = 64 * 1024

  public func resolve(_ request: CallRequest, credentials: Credentials) async throws -> HTTPAttempt {
    try await HTTPAttempt.resolve(
      request, environment: environment, credentials: credentials, idempotencyKey: idempotencyKey)
  }

  public func retrySafety(of attempt: HTTPAttempt) -> AttemptSafety {
    if !attempt.isReplayable { return .notReplayable("the request body came from stdin and cannot be sent twice") }
    let safe = isRetrySafe(
      method: attempt.plan.method, idempotent: idempotent,
      hasIdempotencyKey: attempt.plan.header("Idempotency-Key") != nil)
    return safe ? .safe : .notIdempotent
  }

  public func presentedToken(in attempt: HTTPAttempt) -> String? { AuthApplier.bearerToken(in: attempt.plan) }

  public func send(_ attempt: HTTPAttempt, context: AttemptContext, sink: any CallEventSink) async throws -> CallOutcome
  {
    let safety = retrySafety(of: attempt)
    let noReconnect: String? =
      switch safety {
      case .safe: nil
      case .notIdempotent: "\(attempt.plan.method) is not idempotent, so sending it again could apply it twice"
      case .notReplayable(let why): why
      }
    return try await attemptOnce(
      attempt.plan, attempt: context.number, mask: attempt.mask, deadline: context.deadline, sink: sink,
      noReconnect: noReconnect)
  }

  /// One attempt: sends the request, follows redirects, and streams a successful body to the
  /// sink, or hands an event stream to `followEventStream`.
  ///
  /// - Parameter noReconnect: why a handed-over event stream must not be reconnected, or nil.
  func attemptOnce(
    _ first: HTTPRequestPlan, attempt: Int, mask: SecretMask, deadline: NIODeadline, sink: any CallEventSink,
    noReconnect: String? = nil
  ) async throws(AttemptFailure) -> CallOutcome {
    var plan = first
    var mask = mask
    var hops = 0
    while true {
      let response: HTTPClientResponse
      do {
        if let proxy = session.proxy(for: plan.url) { try sink.receive(.proxy(mask.mask(proxy.display))) }
        // Each hop gets the jar's cookies for its own URL; `plan` keeps only the user's headers.
        let sent = session.cookies.attach(to: plan)
        // The session's cookies are credentials like the user's: an answer that echoes one
        // (a debug page, an error) shows it masked in -v and the archive.
        mask.addSessionCookies(of: sent.headers)
        try sink.receive(
          .requestSent(
            method: sent.method, url: mask.mask(sent.url), headers: mask.mask(sent.headersSent), attempt: attempt))
        try sink.receive(.secrets(mask))
        if let body = RequestBodySummary(sent.body, mask: mask) { try sink.receive(.requestBody(body)) }
        // Closed however the send ends: after it, the sink gets only this task's events.
        let upload = UploadProgress(sink: sink)
        defer { upload.close() }
        response = try await session.send(sent, deadline: deadline, upload: upload)
      } catch {
        let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: timeout)
        throw AttemptFailure(mapped, outcome: NetworkErrorMapper.retryOutcome(of: error, mapped: mapped))
      }
      let status = Int(response.status.code)
      let headers = response.headers.map { HeaderField($0.name, $0.value) }
      session.cookies.store(headers, from: plan.url)
      // A redirect may hand over a credential in its URL (`?access_token=`, a pre-signed URL's
      // signature): masked from here on, in this head, the next hop's request and the archive.
      for header in headers where ["location", "content-location"].contains(header.name.lowercased()) {
        for value in CredentialParams.values(inURL: header.value) { mask.add(value) }
      }
      do {
        try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: mask.mask(headers)))
      } catch {
        throw AttemptFailure(NetworkErrorMapper.map(error, url: plan.url, timeout: timeout))
      }
      (sink as? any RawLinkReceiver)?.receiveRawLinks(headers.filter { $0.name.lowercased() == "link" }.map(\.value))

      if followRedirects, [301, 302, 303, 307, 308].contains(status),
        let location = response.headers.first(name: "location")
      {
        hops += 1
        guard hops <= maxRedirects else {
          throw AttemptFailure(
            APXError(
              .network, "more than \(maxRedirects) redirects, last to \(mask.mask(location))",
              hint: "the server may be redirecting in a loop"))
        }
        // Drain (and drop) the redirect's body so the connection can be reused.
        do { for try await _ in response.body {} } catch {}
        do {
          plan = try Self.redirected(plan, status: status, location: location)
        } catch {
          throw AttemptFailure(error)
        }
        continue
      }

      let ok = expectStatus.map { $0.contains(status) } ?? (200..<300).contains(status)
      if !ok {
        var body: [UInt8] = []
        do {
          for try await chunk in response.body where body.count < Self.errorBodyLimit {
            body.append(contentsOf: chunk.readableBytesView.prefix(Self.errorBodyLimit - body.count))
          }
        } catch {}
        throw AttemptFailure(
          Self.statusError(status: status, body: body, plan: plan, expected: expectStatus, mask: mask),
          outcome: .status(status), retryAfter: response.headers.first(name: "retry-after"),
          credentialsRejected: status == 401)
      }
      let type = MediaType.essence(response.headers.first(name: "content-type"))
      if type == MediaType.eventStream, plan.method != "HEAD", let followEventStream {
        let open = OpenEventStream(
          response: response, plan: plan, redirected: hops > 0, mask: mask, attempt: attempt, deadline: deadline,
          noReconnect: noReconnect)
        do {
          return try await followEventStream(open, sink)
        } catch {
          // Events may already be on stdout: never repeat the attempt.
          throw AttemptFailure(NetworkErrorMapper.map(error, url: plan.url, timeout: timeout))
        }
      }
      if !untilEvent.isEmpty {
        throw AttemptFailure(
          APXError(
            .usage,
            "--until-event stops an event stream, and \(plan.method) \(mask.mask(Self.pathAndQuery(plan.url))) "
              + "answered \(type.isEmpty ? "a body without a Content-Type" : type)",
            hint: MediaType.isLineStream(type)
              ? "a line stream has no event names: stop it with --max-events N" : "drop --until-event",
            reason: .notAnEventStream))
      }
      let lineLimit = MediaType.isLineStream(type) ? maxEvents : nil
      do {
        // AsyncHTTPClient's deadline ends with the response head: bound the body too.
        let pump = BodyPump(executor: session.executor)
        try await Self.untilDeadline(timeout == nil ? nil : deadline) {
          try await pump.forward(response.body, to: sink, lineLimit: lineLimit)
        }
        try sink.receive(.bodyEnd)
      } catch {
        // Part of the body may already be on stdout: never repeat the attempt.
        throw AttemptFailure(NetworkErrorMapper.map(error, url: plan.url, timeout: timeout))
      }
      return CallOutcome(status: status, headers: headers)
    }
  }

  /// Runs `body`, or throws `HTTPClientError.deadlineExceeded` (cancelling it) once
  /// `deadline` passes. Without a deadline it runs `body` directly, with no extra task.
  static func untilDeadline(_ deadline: NIODeadline?, _ body: @escaping @Sendable () async throws -> Void)
    async throws
  {
    guard let deadline else { return try await body() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await body() }
      group.addTask {
        let left = deadline.uptimeNanoseconds.subtractingReportingOverflow(NIODeadline.now().uptimeNanoseconds)
        if !left.overflow, left.partialValue > 0 { try await Task.sleep(nanoseconds: left.partialValue) }
        throw HTTPClientError.deadlineExceeded
      }
      // The first to finish decides: the body (done) or the timer (too late).
      try await group.next()
      group.cancelAll()
    }
  }

  /// The next hop of a redirect. 303 (and 301/302 after POST, as browsers and curl -L do)
  /// become GET without a body; credentials are dropped when the origin changes.
  static func redirected(_ plan: HTTPRequestPlan, status: Int, location: String) throws(APXError) -> HTTPRequestPlan {
    guard let base = URL(string: plan.url), let target = URL(string: location, relativeTo: base)?.absoluteURL else {
      throw APXError(.network, "the server redirected to an invalid URL", cause: location)
    }
    // Only http(s) with a valid port: file:// is not apx's to open, and port 99999 would trap in the client.
    if let problem = BaseURLCheck.problem(target.absoluteString, schemes: ["http", "https"]) {
      throw APXError(
        .network, "the server redirected to \(problem)", hint: "apx follows redirects only to http:// and https:// URLs"
      )
    }
    var next = plan
    next.url = target.absoluteString
    if status == 303 || ((status == 301 || status == 302) && plan.method == "POST") {
      next.method = plan.method == "HEAD" ? "HEAD" : "GET"
      next.body = .none
      next.headers.removeAll { $0.name.lowercased() == "content-type" || $0.name.lowercased() == "content-length" }
    } else if case .stdin = plan.body {
      throw APXError(
        .usage, "the server redirected a request whose body came from stdin, which cannot be sent twice",
        hint: "call the redirect target directly: \(target.absoluteString)")
    }
    if NetworkErrorMapper.origin(plan.url).lowercased() != NetworkErrorMapper.origin(next.url).lowercased() {
      // Every credential: Authorization and cookies, an API-key header, `-H` credentials.
      next.headers.removeAll { plan.carriesCredential($0.name) }
    }
    return next
  }

  static func statusError(status: Int, body: [UInt8], plan: HTTPRequestPlan, expected: [Int]?, mask: SecretMask)
    -> APXError
  {
    let decoded = String(validating: body, as: UTF8.self)
    let text = mask.mask(decoded ?? String(decoding: body, as: UTF8.self)).trimmingWhitespaceAndNewlines()
    let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
    let what = "\(plan.method) \(mask.mask(Self.pathAndQuery(plan.url))) answered \(status) \(reason)"
    let exit: ExitStatus =
      (400..<500).contains(status) ? .httpClientError : ((500..<600).contains(status) ? .httpServerError : .expectation)
    var hint: String?
    switch status {
    case 401: hint = "the credentials were missing or rejected: check the API's auth settings (apx auth status)"
    case 403: hint = "the credentials lack permission for this resource"
    case 404:
      hint =
        plan.endpointName.map { "check the path parameters and the environment's base URL (`apx describe \($0)`)" }
        ?? "check the URL"
    case 400, 422:
      hint =
        "the server rejected the request: see its answer"
        + (plan.endpointName.map { " and `apx describe \($0)`" } ?? "")
    case 429: hint = "rate limited: wait, or allow more attempts (--retry N)"
    case 500..<600: hint = "the server failed; try again later or check its logs"
    default:
      if let expected { hint = "the endpoint expects \(expected.map(String.init).joined(separator: " or "))" }
    }
    var error = APXError(exit, what, hint: hint, cause: text.isEmpty ? nil : text, reason: .unexpectedStatus(status))
    // Bytes that are not text (an image, a compressed page) have nothing to mask.
    error.answerBody = decoded.map { Array(mask.mask($0).utf8) } ?? body
    return error
  }

  static func pathAndQuery(_ url: String) -> String {
    guard let r = url.firstRange(of: "://") else { return url }
    let rest = url[r.upperBound...]
    return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
  }
}
