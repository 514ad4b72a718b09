import APXCore
import NIOCore

/// Watches a `kind: "sse"` endpoint without losing an event.
///
/// Connects with `Accept: text/event-stream`, feeds body chunks to one
/// `SSEParser` (no per-byte or per-event async hops) and sends each event to
/// the sink as `.message({"id","event","data"})`. Stops on `until_event`
/// (success), `fail_on_event` (`remoteFailure`), `--max-events` or the overall
/// `--timeout`. When the connection drops, fails, or answers a retryable
/// non-2xx status, it waits as `SSEReconnectSchedule` says (registry
/// `reconnect.delays`, overridden by the server's `retry:`), reconnects with
/// `Last-Event-ID`, and drops events the server sends again. After
/// `reconnect.max_failures` failed reconnections in a row it polls the
/// declared fallback endpoint (`SSEPollingFallback`), or gives up with a
/// network error.
public struct SSEWatch: Sendable {
  /// Builds requests (templates, auth) and owns the HTTP session.
  public let executor: Executor
  /// Waits between reconnections and polls (injected in tests).
  public let sleeper: any WatchSleeper

  /// Makes a watch that sends its requests through `executor`.
  public init(executor: Executor, sleeper: any WatchSleeper = TaskSleeper()) {
    self.executor = executor
    self.sleeper = sleeper
  }

  /// Watches `request.endpoint` (which must be `kind: "sse"`) until a stop
  /// condition, reporting events to `sink`.
  ///
  /// - Returns: the status and headers of the last response.
  /// - Throws: `APXError`: `.remoteFailure` for a failure event or failed
  ///   poll result, `.timeout` when `--timeout` expires, `.network` when the
  ///   stream keeps failing and no fallback is declared, HTTP statuses for
  ///   answers that reconnecting cannot fix (e.g. 404), or the sink's error.
  public func run(_ request: CallRequest, sink: any CallEventSink) async throws -> CallOutcome {
    let name = "\(request.api.name).\(request.endpoint.name)"
    guard let timeout = request.timeout ?? request.endpoint.timeout else {
      return try await watch(request, name: name, sink: sink, deadline: nil)
    }
    guard timeout.isFinite, timeout > 0 else {
      throw APXError(.usage, "the timeout must be a positive number of seconds, got \(timeout)")
    }
    let milliseconds = DurationConversion.milliseconds(timeout)
    let deadline = NIODeadline.now() + .milliseconds(milliseconds)
    // The overall limit covers reconnection waits and polling too, so it races the whole watch.
    return try await withThrowingTaskGroup(of: CallOutcome?.self) { group in
      group.addTask { try await self.watch(request, name: name, sink: sink, deadline: deadline) }
      group.addTask {
        try await Task.sleep(for: .milliseconds(milliseconds))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let outcome = first else {
        throw APXError(
          .timeout, "watching \(name) timed out after \(Self.seconds(timeout))",
          hint: "raise the limit with --timeout SECONDS, or stop earlier with --max-events N")
      }
      return outcome
    }
  }

  /// The connect-reconnect loop, then the fallback.
  private func watch(_ request: CallRequest, name: String, sink: any CallEventSink, deadline: NIODeadline?) async throws
    -> CallOutcome
  {
    let options = request.endpoint.sse ?? SSEOptions()
    let policy = try Self.reconnectPolicy(options.reconnect, endpoint: request.endpoint.name)
    var schedule = SSEReconnectSchedule(policy: policy)
    var delivery = try SSEDelivery(endpointName: name, options: options, maxEvents: request.maxEvents)
    var parser = SSEParser()
    var (plan, mask) = try await executor.plan(for: request)
    Self.prepareStreamHeaders(&plan, userHeaders: request.headers)

    var attempt = 0
    var failedInARow = 0
    var refreshedCredentials = false
    var lastFailure: APXError?
    while true {
      attempt += 1
      var connectionPlan = plan
      if !parser.lastEventID.isEmpty { connectionPlan.setHeader("Last-Event-ID", parser.lastEventID) }
      if attempt > 1 { delivery.deduplicator.beginResume() }
      let connection = SSEConnection(
        session: executor.session, plan: connectionPlan, mask: mask, attempt: attempt, endpointName: name,
        endsWithEvent: !options.untilEvent.isEmpty)
      let end = try await connection.run(
        parser: &parser, schedule: &schedule, delivery: &delivery, sink: sink, deadline: deadline ?? .distantFuture)
      parser.finish()
      if let retry = parser.retry { schedule.setServerRetry(milliseconds: retry) }

      let reason: String
      switch end {
      case .finished(let status, let headers):
        return CallOutcome(status: status, headers: headers)
      case .unauthorized(let error, let deliveredEvents):
        if deliveredEvents { refreshedCredentials = false }
        // Credentials can expire during a long watch: get fresh ones once, then reconnect at once.
        guard !refreshedCredentials,
          Self.canRefresh(AuthApplier.effective(api: request.api, endpoint: request.endpoint))
        else {
          throw error
        }
        refreshedCredentials = true
        (plan, mask) = try await executor.plan(for: request, forceRefresh: true)
        Self.prepareStreamHeaders(&plan, userHeaders: request.headers)
        continue
      case .interrupted(let why, let error, let deliveredEvents):
        reason = why
        lastFailure = error ?? lastFailure
        if deliveredEvents {
          failedInARow = 0
          refreshedCredentials = false
        } else {
          failedInARow += 1
        }
      }

      switch schedule.connectionEnded() {
      case .reconnect(let delay):
        let resumeFrom = parser.lastEventID.isEmpty ? nil : mask.mask(parser.lastEventID)
        try sink.receive(.reconnecting(after: delay, reason: reason, lastEventID: resumeFrom))
        try await sleeper.sleep(seconds: delay)
      case .fallBack:
        guard let fallback = options.fallback else {
          throw APXError(
            .network,
            "gave up watching \(name): \(failedInARow) connection attempt\(failedInARow == 1 ? "" : "s") in a row "
              + "failed (\(attempt) in all)",
            hint: "check that the server is up; the endpoint declares no polling fallback "
              + "(add \"fallback\" or raise reconnect.max_failures in its registry file)",
            cause: lastFailure.map { [$0.message, $0.cause].compactMap { $0 }.joined(separator: ": ") } ?? reason)
        }
        let poller = SSEPollingFallback(executor: executor, sleeper: sleeper, fallback: fallback, endpointName: name)
        return try await poller.run(request, delivery: &delivery, sink: sink)
      }
    }
  }

  /// Asks for an event stream and no cached copy; a user's own `-H Accept:` wins.
  static func prepareStreamHeaders(_ plan: inout HTTPRequestPlan, userHeaders: [HeaderField]) {
    if !userHeaders.contains(where: { $0.name.lowercased() == "accept" }) {
      plan.setHeader("Accept", "text/event-stream")
    }
    if plan.header("Cache-Control") == nil { plan.setHeader("Cache-Control", "no-cache") }
  }

  /// The registry's reconnect settings as a validated policy.
  static func reconnectPolicy(_ config: ReconnectConfig, endpoint: String) throws(APXError) -> SSEReconnectPolicy {
    do {
      return try SSEReconnectPolicy(delays: config.delays, maxConsecutiveFailures: config.maxFailures)
    } catch {
      var error = error
      error.path = ".endpoints[\"\(endpoint)\"].reconnect" + (error.path ?? "")
      throw error
    }
  }

  /// Whether asking again can give other credentials (a token from a server or a command).
  static func canRefresh(_ auth: AuthConfig) -> Bool {
    switch auth {
    case .oauth2ClientCredentials, .tokenCommand: return true
    default: return false
    }
  }

  static func seconds(_ value: Double) -> String {
    "\(NumberText.plain(value))s"
  }
}
