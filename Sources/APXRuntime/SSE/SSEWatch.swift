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
  func run(_ request: CallRequest, sink: any CallEventSink, attempts: AttemptCounter) async throws -> CallOutcome {
    let name = "\(request.api.name).\(request.endpoint.name)"
    guard let timeout = request.timeout ?? request.endpoint.timeout else {
      return try await watch(request, name: name, sink: sink, deadline: nil, attempts: attempts)
    }
    guard timeout.isFinite, timeout > 0 else {
      throw APXError(.usage, "the timeout must be a positive number of seconds, got \(timeout)")
    }
    let milliseconds = DurationConversion.milliseconds(timeout)
    let deadline = NIODeadline.now() + .milliseconds(milliseconds)
    // The overall limit covers reconnection waits and polling too, so it races the whole watch.
    return try await withThrowingTaskGroup(of: CallOutcome?.self) { group in
      group.addTask {
        try await self.watch(request, name: name, sink: sink, deadline: deadline, attempts: attempts)
      }
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
  private func watch(
    _ request: CallRequest, name: String, sink: any CallEventSink, deadline: NIODeadline?, attempts: AttemptCounter
  ) async throws -> CallOutcome {
    let options = request.endpoint.sse ?? SSEOptions()
    let policy = try Self.reconnectPolicy(options.reconnect, endpoint: request.endpoint.name)
    let stream = SSEStreamState(
      schedule: SSEReconnectSchedule(policy: policy),
      delivery: try SSEDelivery(endpointName: name, options: options, maxEvents: request.maxEvents))
    let connection = SSEConnection(
      session: executor.session, environment: executor.environment, endpointName: name,
      endsWithEvent: !options.untilEvent.isEmpty, userHeaders: request.headers, stream: stream)

    var attempt = 0
    var failedInARow = 0
    var lastFailure: APXError?
    while true {
      attempt += 1
      attempts.value = attempt
      if attempt > 1 { stream.delivery.deduplicator.beginResume() }
      let context = AttemptContext(number: attempt, timeout: nil, deadline: deadline ?? .distantFuture)
      do {
        defer { finishConnection(stream) }
        // Credentials can expire during a long watch: the auth layer gets fresh ones once and reconnects at once.
        var outcome = try await executor.authorized(connection, request, timeout: nil, sink: sink) { resolved, _, _ in
          try await connection.send(resolved, context: context, sink: sink)
        }
        outcome.attempts = attempt
        return outcome
      } catch let failure as AttemptFailure {
        guard failure.outcome != nil, !failure.credentialsRejected else { throw failure.error }
        lastFailure = stream.interruptionError ?? lastFailure
      }
      let reason = stream.interruption ?? lastFailure?.message ?? "the connection ended"
      if stream.deliveredEvents { failedInARow = 0 } else { failedInARow += 1 }

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
    if let retry = stream.parser.retry { stream.schedule.setServerRetry(milliseconds: retry) }
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

  static func seconds(_ value: Double) -> String {
    "\(NumberText.plain(value))s"
  }
}
