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
///
/// This is the SSE layer on top of the pipeline: each connection is one
/// attempt of the SSE transport (`SSEConnection`) sent through the
/// executor's auth layer, which refreshes a refused token and replays.
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
    try await run(request, sink: sink, attempts: AttemptCounter())
  }

  /// `run(_:sink:)`, counting connections in `attempts`.
  /// With `graphQL`, `request` is a GraphQL subscription over SSE ("distinct connections"
  /// mode): a POST of the GraphQL request, whose `next` events are execution results and whose
  /// `complete` event ends it.
  func run(_ request: CallRequest, sink: any CallEventSink, attempts: AttemptCounter, graphQL: GraphQLStream? = nil)
    async throws -> CallOutcome
  {
    let name = Self.displayName(request)
    guard let timeout = request.timeout ?? request.endpoint.timeout else {
      return try await watch(
        request, name: name, sink: sink, deadline: nil, attempts: attempts, opened: nil, graphQL: graphQL)
    }
    guard timeout.isFinite, timeout > 0 else {
      throw APXError(.usage, "the timeout must be a positive number of seconds, got \(timeout)")
    }
    let deadline = NIODeadline.now() + .milliseconds(DurationConversion.milliseconds(timeout))
    return try await bounded(name: name, timeout: timeout, deadline: deadline) {
      try await self.watch(
        request, name: name, sink: sink, deadline: deadline, attempts: attempts, opened: nil, graphQL: graphQL)
    }
  }

  /// Follows an answer that the REST transport found to be an event stream (`Content-Type:
  /// text/event-stream`), from its open body on, as `run` follows a `kind: "sse"` endpoint:
  /// the same delivery, stop conditions, and reconnection with `Last-Event-ID` (unless
  /// `open.noReconnect` says why the request must not be sent again). The call's `--timeout`
  /// keeps its deadline, which started with the first attempt.
  func follow(_ request: CallRequest, from open: OpenEventStream, sink: any CallEventSink, attempts: AttemptCounter)
    async throws -> CallOutcome
  {
    let name = Self.displayName(request)
    guard let timeout = request.timeout ?? request.endpoint.timeout, open.deadline != .distantFuture else {
      return try await watch(request, name: name, sink: sink, deadline: nil, attempts: attempts, opened: open)
    }
    return try await bounded(name: name, timeout: timeout, deadline: open.deadline) {
      try await self.watch(
        request, name: name, sink: sink, deadline: open.deadline, attempts: attempts, opened: open)
    }
  }

  /// Runs `body` until `deadline`: the overall limit covers reconnection waits and polling
  /// too, so it races the whole watch.
  private func bounded(
    name: String, timeout: Double, deadline: NIODeadline,
    _ body: @escaping @Sendable () async throws -> CallOutcome
  ) async throws -> CallOutcome {
    try await withThrowingTaskGroup(of: CallOutcome?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        let left = deadline.uptimeNanoseconds.subtractingReportingOverflow(NIODeadline.now().uptimeNanoseconds)
        if !left.overflow, left.partialValue > 0 { try await Task.sleep(nanoseconds: left.partialValue) }
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

  /// The connect-reconnect loop, then the fallback. With `opened`, the first connection is
  /// that already open answer.
  private func watch(
    _ request: CallRequest, name: String, sink: any CallEventSink, deadline: NIODeadline?, attempts: AttemptCounter,
    opened: OpenEventStream?, graphQL: GraphQLStream? = nil
  ) async throws -> CallOutcome {
    var options =
      graphQL.map { _ in
        SSEOptions(untilEvent: ["complete"], reconnect: request.endpoint.graphql?.reconnect ?? ReconnectConfig())
      } ?? request.endpoint.sse ?? SSEOptions()
    options.untilEvent += request.untilEvent
    let policy = try Self.reconnectPolicy(options.reconnect, endpoint: request.endpoint.name)
    let stream = SSEStreamState(
      schedule: SSEReconnectSchedule(policy: policy),
      delivery: try SSEDelivery(endpointName: name, options: options, maxEvents: request.maxEvents))
    stream.delivery.graphQL = graphQL?.delivery
    if let opened, opened.redirected { stream.redirectedTo = opened.plan.url }
    let connection = SSEConnection(
      session: executor.session, environment: executor.environment, endpointName: name,
      endsWithEvent: !options.untilEvent.isEmpty, userHeaders: request.headers, stream: stream,
      graphQL: graphQL?.envelope)

    var pending = opened
    // A handed-over stream's first connection was the REST transport's attempt of that number.
    var attempt = (opened?.attempt ?? 1) - 1
    var connections = 0
    var failedInARow = 0
    var lastFailure: APXError?
    while true {
      attempt += 1
      attempts.value = attempt
      if connections > 0 { stream.delivery.deduplicator.beginResume() }
      connections += 1
      let context = AttemptContext(number: attempt, timeout: nil, deadline: deadline ?? .distantFuture)
      do {
        defer { finishConnection(stream) }
        var outcome: CallOutcome
        if let open = pending {
          pending = nil
          outcome = try await connection.follow(open, sink: sink)
        } else {
          // Credentials can expire during a long watch: the auth layer gets fresh ones once and reconnects at once.
          outcome = try await executor.authorized(connection, request, timeout: nil, sink: sink) { resolved, _, _ in
            try await connection.send(resolved, context: context, sink: sink)
          }
        }
        outcome.attempts = attempt
        try stream.delivery.graphQL?.finish()
        return outcome
      } catch let failure as AttemptFailure {
        guard failure.outcome != nil, !failure.credentialsRejected else { throw failure.error }
        if failure.outcome == .hostNotFound {
          throw Executor.gaveUp(failure.error, reason: .hostNotFound, attempts: attempt, safety: .safe)
        }
        lastFailure = stream.interruptionError ?? lastFailure
      }
      let reason = stream.interruption ?? lastFailure?.message ?? "the connection ended"
      if let refusal = opened?.noReconnect {
        let count = stream.delivery.delivered
        throw APXError(
          .network,
          "\(name): \(reason), after \(count) event\(count == 1 ? "" : "s"); not reconnecting: \(refusal)",
          hint: "the events so far are on stdout; a GET (or an endpoint declared idempotent) is followed "
            + "across drops with Last-Event-ID",
          cause: lastFailure.map { [$0.message, $0.cause].compactMap { $0 }.joined(separator: ": ") })
      }
      if stream.deliveredEvents { failedInARow = 0 } else { failedInARow += 1 }

      if let asked = stream.retryBelowFloor, !stream.retryFloorNoted {
        stream.retryFloorNoted = true
        try sink.receive(
          .note(
            "\(name): the server asked to reconnect after \(asked) ms (retry:); waiting "
              + "\(Self.seconds(SSEReconnectSchedule.serverRetryFloor)) at least, and a reconnection that brings no "
              + "new event counts as failed"))
      }
      switch stream.schedule.connectionEnded() {
      case .reconnect(let delay):
        let lastID = stream.parser.lastEventID
        let resumeFrom = lastID.isEmpty ? nil : stream.mask.mask(lastID)
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
        return try await poller.run(request, delivery: &stream.delivery, sink: sink)
      }
    }
  }

  /// After a connection: the parser flushes what it holds, and a `retry:` the server sent takes effect.
  private func finishConnection(_ stream: SSEStreamState) {
    stream.parser.finish()
    if let retry = stream.parser.retry, stream.schedule.setServerRetry(milliseconds: retry) {
      stream.retryBelowFloor = retry
    }
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

  /// `API.ENDPOINT` for messages; an ad-hoc call's `METHOD /path` (its API is only the host).
  static func displayName(_ request: CallRequest) -> String {
    request.targetIsURL ? request.endpoint.name : "\(request.api.name).\(request.endpoint.name)"
  }

  static func seconds(_ value: Double) -> String {
    "\(NumberText.plain(value))s"
  }
}
