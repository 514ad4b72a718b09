import HTTPTypes
import Hummingbird
import NIOCore

/// The `text/event-stream` of one import job.
///
/// Replays the job's stored events after `Last-Event-ID`, then follows new ones live,
/// sends `: keep-alive` after 2 s of silence, and ends after `complete` or `error`.
/// Faults: `refuse_stream` answers 503; `drop_every` ends the connection after K events.
struct ImportStream: Sendable {
  /// Silence after which a keep-alive comment is written, unless the request sets `keepalive_ms`.
  static let keepAliveInterval: Duration = .seconds(2)
  /// How often a waiting stream looks for new events.
  static let pollInterval: Duration = .milliseconds(5)

  let job: ImportJob
  let stats: StatsRecorder
  /// Ends the stream when the server stops, so graceful shutdown does not wait for the job.
  let stopping: StopSignal

  /// Thrown inside the body writer to abort the connection (`drop_mode=abort`).
  struct DroppedOnPurpose: Error {}

  /// The response for a stream request.
  func response(to request: Request, channel: any Channel) throws -> Response {
    // Content negotiation first, as real SSE servers do: a client must ask for an event stream.
    try EventStreamNegotiation.require(request)
    if job.faults.refuseStream {
      stats.update { $0.streamsRefused += 1 }
      throw DemoError(
        status: .serviceUnavailable, code: "stream_unavailable",
        message: "the event stream is disabled for this job (refuse_stream); poll /api/v2/imports/\(job.id)",
        headers: [.retryAfter: "1"])
    }
    stats.update { $0.streamConnections += 1 }
    let alreadySent =
      job.faults.ignoreLastEventID ? 0 : Self.sequence(ofLastEventID: request.header("Last-Event-ID"))
    let keepAlive = try request.intQuery("keepalive_ms", in: 10...600_000, default: 0)
    let keepAliveInterval = keepAlive > 0 ? .milliseconds(keepAlive) : Self.keepAliveInterval
    var headers: HTTPFields = [
      .contentType: "text/event-stream; charset=utf-8",
      .cacheControl: "no-cache",
    ]
    // A connection that will be cut must not be reused by the client's pool afterwards.
    if job.faults.dropEvery != nil { headers[.connection] = "close" }
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { writer in
        try await stream(after: alreadySent, keepAlive: keepAliveInterval, to: &writer, channel: channel)
      })
  }

  /// The event sequence number named by a `Last-Event-ID` value (`evt-7` or `7`); 0 replays all.
  static func sequence(ofLastEventID value: String?) -> Int {
    guard let value else { return 0 }
    let digits = value.hasPrefix("evt-") ? value.dropFirst(4) : value[...]
    return Int(digits).map { max(0, $0) } ?? 0
  }

  private func stream(
    after alreadySent: Int, keepAlive: Duration, to writer: inout any ResponseBodyWriter, channel: any Channel
  )
    async throws
  {
    let clock = ContinuousClock()
    var cursor = alreadySent
    var sentOnConnection = 0
    try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
    var lastWrite = clock.now
    while true {
      let (events, finished) = job.events(after: cursor)
      if events.isEmpty {
        if finished || stopping.isRaised {
          // The client resumed after the terminal event: nothing more will come.
          try await writer.finish(nil)
          return
        }
        if clock.now - lastWrite >= keepAlive {
          try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
          lastWrite = clock.now
        }
        try await clock.sleep(for: Self.pollInterval)
        continue
      }
      for event in events {
        try await writer.write(ByteBuffer(string: event.wireText))
        lastWrite = clock.now
        cursor = event.sequence
        sentOnConnection += 1
        if event.isTerminal {
          try await writer.finish(nil)
          return
        }
        if let every = job.faults.dropEvery, sentOnConnection >= every {
          stats.update { $0.streamsDropped += 1 }
          if job.faults.abortOnDrop { throw DroppedOnPurpose() }
          try await writer.finish(nil)
          // Close the TCP connection too, like a proxy cutting a long-lived stream.
          try? await channel.close()
          return
        }
      }
    }
  }
}
