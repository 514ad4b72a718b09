import APXCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Per-call settings of a REST request.
public struct RESTCallOptions: Sendable {
  /// Overall time limit for the call, all attempts, waits and redirects included.
  public var timeout: Double?
  public var followRedirects = true
  public var maxRedirects = 10
  /// Statuses that count as success; nil means any 2xx.
  public var expectStatus: [Int]?
  public var mask = SecretMask()
  /// When and how often a failed attempt is repeated (default: never).
  public var retry: RetryPolicy = .never
  /// Whether repeating the request cannot apply it twice (`isRetrySafe`); unsafe requests get one attempt.
  public var retrySafe = true
  /// Time source and sleeper for the waits between attempts.
  public var clock: any RetryClock = SystemRetryClock()
  /// Called once when the server answers 401: returns the request with fresh
  /// credentials (and the mask that covers them) to replay. Nil: a 401 fails.
  public var reauthorize: (@Sendable (HTTPRequestPlan) async throws -> (HTTPRequestPlan, SecretMask))?

  public init(
    timeout: Double? = nil, followRedirects: Bool = true, expectStatus: [Int]? = nil, mask: SecretMask = SecretMask(),
    retry: RetryPolicy = .never, retrySafe: Bool = true, clock: any RetryClock = SystemRetryClock()
  ) {
    self.timeout = timeout
    self.followRedirects = followRedirects
    self.expectStatus = expectStatus
    self.mask = mask
    self.retry = retry
    self.retrySafe = retrySafe
    self.clock = clock
  }
}

/// What a finished REST call returned (the body went to the sink).
public struct RESTResult: Sendable {
  public var status: Int
  public var headers: [HeaderField]
  public var url: String
  /// Attempts made (1 when the first one succeeded).
  public var attempts: Int = 1
}

/// Sends a planned REST request: retries failed attempts when the policy and
/// the method allow it (honouring `Retry-After`), replays once with fresh
/// credentials after a 401, follows redirects itself (dropping credentials
/// when the origin changes), streams the body to the sink as it arrives, and
/// turns unexpected statuses into errors that carry the body.
public struct RESTCall: Sendable {
  public let session: HTTPSession

  public init(session: HTTPSession) { self.session = session }

  /// Largest error body kept for the message; the rest is dropped.
  static let errorBodyLimit = 64 * 1024

  /// One attempt that did not produce a successful response.
  struct AttemptFailure: Error {
    /// What the user sees if no further attempt is made.
    var error: APXError
    /// How the attempt failed, for the retry decision; nil when it must not be repeated
    /// (a usage error, or the body already started going to the sink).
    var outcome: RetryOutcome?
    /// The raw `Retry-After` header of a failed response.
    var retryAfter: String?
  }

  public func run(_ initial: HTTPRequestPlan, options: RESTCallOptions, sink: any CallEventSink) async throws(APXError)
    -> RESTResult
  {
    let clock = options.clock
    let start = clock.now()
    let deadline: NIODeadline =
      options.timeout.map { .now() + .milliseconds(DurationConversion.milliseconds($0)) } ?? .distantFuture
    var plan = initial
    var mask = options.mask
    var attempt = 1
    var reauthorized = false
    var random = SystemRandomNumberGenerator()
    // A body read from stdin is gone after the first attempt.
    let replayable: Bool = if case .stdin = initial.body { false } else { true }

    while true {
      let failure: AttemptFailure
      do {
        var result = try await attemptOnce(
          plan, attempt: attempt, mask: mask, options: options, deadline: deadline, sink: sink)
        result.attempts = attempt
        return result
      } catch {
        failure = error
      }

      if case .status(401) = failure.outcome, !reauthorized, replayable, let reauthorize = options.reauthorize {
        // The token was rejected (revoked, or expired early): refresh once and replay. Not a retry.
        reauthorized = true
        do {
          (plan, mask) = try await reauthorize(plan)
        } catch {
          throw NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
        }
        continue
      }

      guard let outcome = failure.outcome else { throw failure.error }
      let now = clock.now()
      let remaining = options.timeout.map { $0 - (now - start) }
      let retryAfter = failure.retryAfter.flatMap { RetryAfter.seconds(from: $0, now: now) }
      let decision = options.retry.decide(
        afterAttempt: attempt, outcome: outcome, retrySafe: options.retrySafe && replayable, retryAfter: retryAfter,
        remainingBudget: remaining, random: &random)
      switch decision {
      case .retry(let wait):
        do {
          try sink.receive(.retrying(attempt: attempt + 1, after: wait, reason: failure.error.message))
          try await clock.sleep(seconds: wait)
        } catch {
          throw NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
        }
        attempt += 1
      case .giveUp(let reason):
        throw Self.gaveUp(failure.error, reason: reason, attempts: attempt, replayable: replayable)
      }
    }
  }

  /// The final error after the last attempt, saying why apx stopped trying when that helps.
  static func gaveUp(_ error: APXError, reason: RetryGiveUpReason, attempts: Int, replayable: Bool) -> APXError {
    var error = error
    switch reason {
    case .attemptsExhausted:
      if attempts > 1 { error.message += " (\(reason))" }
    case .budgetExhausted:
      error.message += " (\(reason): gave up after \(attempts) attempt\(attempts == 1 ? "" : "s"))"
      error.hint = "raise --timeout, or lower the retry delays"
    case .notSafeToRetry:
      let why =
        replayable
        ? "not retried: \(reason)"
        : "not retried: the request body came from stdin and cannot be sent twice"
      error.hint = error.hint.map { $0 + "; " + why } ?? why
    case .statusNotRetryable, .connectionFailureNotRetryable, .timeoutNotRetryable:
      if attempts > 1 { error.message += " (after \(attempts) attempts)" }
    }
    return error
  }

  /// One attempt: sends the request, follows redirects, and streams a successful body to the sink.
  func attemptOnce(
    _ first: HTTPRequestPlan, attempt: Int, mask: SecretMask, options: RESTCallOptions, deadline: NIODeadline,
    sink: any CallEventSink
  ) async throws(AttemptFailure) -> RESTResult {
    var plan = first
    var hops = 0
    while true {
      let response: HTTPClientResponse
      do {
        try sink.receive(
          .requestSent(
            method: plan.method, url: mask.mask(plan.url), headers: mask.mask(plan.headers), attempt: attempt))
        response = try await session.send(plan, deadline: deadline)
      } catch {
        let mapped = NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout)
        throw AttemptFailure(error: mapped, outcome: Self.outcome(of: mapped))
      }
      let status = Int(response.status.code)
      let headers = response.headers.map { HeaderField($0.name, $0.value) }
      do {
        try sink.receive(.responseHead(status: status, version: "\(response.version)", headers: mask.mask(headers)))
      } catch {
        throw AttemptFailure(error: NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout))
      }

      if options.followRedirects, [301, 302, 303, 307, 308].contains(status),
        let location = response.headers.first(name: "location")
      {
        hops += 1
        guard hops <= options.maxRedirects else {
          throw AttemptFailure(
            error: APXError(
              .network, "more than \(options.maxRedirects) redirects, last to \(mask.mask(location))",
              hint: "the server may be redirecting in a loop"))
        }
        // Drain (and drop) the redirect's body so the connection can be reused.
        do { for try await _ in response.body {} } catch {}
        do {
          plan = try Self.redirected(plan, status: status, location: location)
        } catch {
          throw AttemptFailure(error: error)
        }
        continue
      }

      let ok = options.expectStatus.map { $0.contains(status) } ?? (200..<300).contains(status)
      if !ok {
        var body: [UInt8] = []
        do {
          for try await chunk in response.body where body.count < Self.errorBodyLimit {
            body.append(contentsOf: chunk.readableBytesView.prefix(Self.errorBodyLimit - body.count))
          }
        } catch {}
        throw AttemptFailure(
          error: Self.statusError(status: status, body: body, plan: plan, expected: options.expectStatus, mask: mask),
          outcome: .status(status), retryAfter: response.headers.first(name: "retry-after"))
      }
      do {
        // AsyncHTTPClient's deadline ends with the response head: bound the body too.
        let pump = BodyPump(eventLoop: session.eventLoop)
        try await Self.untilDeadline(options.timeout == nil ? nil : deadline) {
          try await pump.forward(response.body, to: sink)
        }
        try sink.receive(.bodyEnd)
      } catch {
        // Part of the body may already be on stdout: never repeat the attempt.
        throw AttemptFailure(error: NetworkErrorMapper.map(error, url: plan.url, timeout: options.timeout))
      }
      return RESTResult(status: status, headers: headers, url: plan.url)
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

  /// How a transport error counts for retries: connection problems and
  /// timeouts may be retried; anything else (bad URL, cancelled) may not.
  static func outcome(of error: APXError) -> RetryOutcome? {
    switch error.status {
    case .network: .connectionFailure
    case .timeout: .timeout
    default: nil
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
    let text = mask.mask(String(decoding: body, as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
    let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
    let what = "\(plan.method) \(mask.mask(Self.pathAndQuery(plan.url))) answered \(status) \(reason)"
    let exit: ExitStatus =
      (400..<500).contains(status) ? .httpClientError : ((500..<600).contains(status) ? .httpServerError : .expectation)
    var hint: String?
    switch status {
    case 401: hint = "the credentials were missing or rejected: check the API's auth settings (apx auth status)"
    case 403: hint = "the credentials lack permission for this resource"
    case 404: hint = "check the path parameters and the environment's base URL"
    case 400, 422: hint = "the server rejected the request: see its message above and `apx describe`"
    case 429: hint = "rate limited: wait, or allow more attempts (--retry N)"
    case 500..<600: hint = "the server failed; try again later or check its logs"
    default:
      if let expected { hint = "the endpoint expects \(expected.map(String.init).joined(separator: " or "))" }
    }
    return APXError(exit, what, hint: hint, cause: text.isEmpty ? nil : text)
  }

  static func pathAndQuery(_ url: String) -> String {
    guard let r = url.range(of: "://") else { return url }
    let rest = url[r.upperBound...]
    return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
  }
}
