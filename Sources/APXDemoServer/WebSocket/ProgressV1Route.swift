import APXServing
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// BooksTrack V1 import progress: `/ws/progress?jobId=ID` over WebSocket, the system the V2
/// event stream replaced.
///
/// The client authenticates with the subprotocol `bookstrack-auth.<token>` (the server answers
/// with that subprotocol); a token is any non-empty text, or, when the server requires auth, an
/// access token from `POST /oauth/token`. Each connection gets a `snapshot` of the job's current
/// state, then one `progress` message per processed batch, then `complete` (closed with 1000)
/// or `error` (closed with 1011). A missing or unknown token is answered, as many servers do,
/// by accepting the connection and closing it with 1008 (policy violation) and the reason.
/// Faults: `drop_every=K` cuts the connection without a close frame after K progress messages;
/// `refuse=true` on the URL, or `refuse_stream` on the job, refuses the handshake so a client
/// must poll (hummingbird-websocket answers every refused upgrade with 400).
/// The client's pings are answered while the job is watched.
struct ProgressV1Route: Sendable {
  static let path = "ws/progress"
  /// The subprotocol prefix that carries the token.
  static let authPrefix = "bookstrack-auth."

  let imports: ImportStore
  let tokens: TokenStore
  let stats: StatsRecorder
  let options: DemoServerOptions
  let stopping: StopSignal

  /// The checks of an upgrade request: the job it watches and the subprotocol it is answered with.
  private func check(_ request: Request) throws -> (job: ImportJob, subprotocol: String, dropEvery: Int?) {
    guard let id = request.uri.queryParameters["jobId"].map(String.init), !id.isEmpty else {
      throw DemoError.badRequest("missing_parameter", "the query must name the job: ?jobId=imp_...")
    }
    guard let offered = WebSocketHandshake.offeredSubprotocols(request).first(where: { $0.hasPrefix(Self.authPrefix) }),
      offered.count > Self.authPrefix.count
    else {
      stats.update { $0.authFailures += 1 }
      throw DemoError(
        status: .unauthorized, code: "invalid_token",
        message: "offer the subprotocol '\(Self.authPrefix)<token>' (Sec-WebSocket-Protocol)")
    }
    if options.requireAuth, !tokens.isValid(accessToken: String(offered.dropFirst(Self.authPrefix.count))) {
      stats.update { $0.authFailures += 1 }
      throw DemoError(
        status: .unauthorized, code: "invalid_token",
        message: "the access token is unknown or expired; get a new one from POST /oauth/token")
    }
    guard let job = imports.job(id: id) else { throw DemoError.notFound("no import job with id '\(id)'") }
    let refuse = request.uri.queryParameters["refuse"].map { !["0", "false", "no"].contains($0.lowercased()) }
    if refuse ?? job.faults.refuseStream {
      stats.update { $0.streamsRefused += 1 }
      throw DemoError(
        status: .serviceUnavailable, code: "stream_unavailable",
        message: "progress is disabled for this job (refuse); poll /api/v2/imports/\(job.id)",
        headers: [.retryAfter: "1"])
    }
    var dropEvery: Int?
    if let text = request.uri.queryParameters["drop_every"].map(String.init) {
      guard let every = Int(text), every >= 1 else {
        throw DemoError.badRequest("invalid_parameter", "'drop_every' must be a whole number from 1")
      }
      dropEvery = every
    }
    return (job, offered, dropEvery)
  }

  func register(http router: Router<ServerRequestContext>, webSocket ws: Router<DemoWebSocketContext>) {
    router.get(RouterPath(stringLiteral: Self.path)) { request, _ -> Response in
      _ = try check(request)
      throw WebSocketHandshake.upgradeRequired()
    }
    ws.ws(
      RouterPath(stringLiteral: Self.path),
      shouldUpgrade: { request, _ in
        do {
          let checked = try check(request)
          return .upgrade([.secWebSocketProtocol: checked.subprotocol])
        } catch let error as DemoError where error.status == .unauthorized {
          // Accepted, then closed with 1008 and the reason (`onUpgrade`).
          let offered = WebSocketHandshake.offeredSubprotocols(request).first
          return .upgrade(offered.map { [.secWebSocketProtocol: $0] } ?? [:])
        } catch {
          return .dontUpgrade
        }
      },
      onUpgrade: { inbound, outbound, context in
        let checked: (job: ImportJob, subprotocol: String, dropEvery: Int?)
        do {
          checked = try check(context.request)
        } catch let error as DemoError {
          return try await outbound.close(.policyViolation, reason: error.message)
        }
        stats.update { $0.streamConnections += 1 }
        try await withThrowingTaskGroup(of: Void.self) { group in
          // Reading the client's frames is what answers its pings (swift-websocket handles
          // control frames as they are read), as any server does; their content is ignored.
          group.addTask {
            do {
              for try await _ in inbound {}
            } catch {}
          }
          defer { group.cancelAll() }
          try await watch(
            checked.job, dropEvery: checked.dropEvery, outbound: outbound, channel: context.requestContext.channel)
        }
      })
  }

  /// Sends the snapshot, then the job's progress from now on, until it ends.
  private func watch(_ job: ImportJob, dropEvery: Int?, outbound: WebSocketOutboundWriter, channel: any Channel)
    async throws
  {
    var cursor = job.events(after: 0).events.endIndex
    try await outbound.write(.text(snapshot(job).compact))
    var sent = 0
    while true {
      let (events, finished) = job.events(after: cursor)
      if events.isEmpty {
        if finished {
          let state = job.snapshot
          return try await end(job, failed: state.status == .failed, message: state.errorMessage, outbound: outbound)
        }
        if stopping.isRaised { return try await outbound.close(.goingAway, reason: "the server is stopping") }
        try await Task.sleep(for: ImportStream.pollInterval)
        continue
      }
      for event in events {
        cursor = event.sequence
        switch event.name {
        case "progress":
          let state = job.snapshot
          try await outbound.write(
            .text(
              JSONText.object(
                [("type", .string("progress"))] + counts(job, processed: progressRows(event) ?? state.processedRows)
              ).compact))
          sent += 1
          if let dropEvery, sent % dropEvery == 0 {
            stats.update { $0.streamsDropped += 1 }
            try? await channel.close()
            return
          }
        case "complete", "error":
          let state = job.snapshot
          return try await end(job, failed: event.name == "error", message: state.errorMessage, outbound: outbound)
        default:
          continue
        }
      }
    }
  }

  private func end(_ job: ImportJob, failed: Bool, message: String?, outbound: WebSocketOutboundWriter) async throws {
    if failed {
      let text = message ?? "the import failed"
      try await outbound.write(
        .text(
          JSONText.object([("type", .string("error")), ("jobId", .string(job.id)), ("message", .string(text))]).compact)
      )
      return try await outbound.close(.unexpectedServerError, reason: "import failed")
    }
    let state = job.snapshot
    try await outbound.write(
      .text(
        JSONText.object(
          [("type", .string("complete"))] + counts(job, processed: state.processedRows) + [
            ("result", state.result ?? job.resultSummary)
          ]
        ).compact))
    try await outbound.close(.normalClosure, reason: nil)
  }

  private func snapshot(_ job: ImportJob) -> JSONText {
    let state = job.snapshot
    return .object(
      [("type", .string("snapshot")), ("status", .string(state.status.rawValue))]
        + counts(job, processed: state.processedRows))
  }

  private func counts(_ job: ImportJob, processed: Int) -> [(String, JSONText)] {
    [
      ("jobId", .string(job.id)), ("processedRows", .int(processed)), ("totalRows", .int(job.totalRows)),
      ("progress", .double(ImportJob.progress(processed: processed, total: job.totalRows))),
    ]
  }

  /// The processed row count a `progress` event carries (its data is `{"processed_rows": N, ...}`).
  private func progressRows(_ event: ImportEvent) -> Int? {
    guard let range = event.data.firstRange(of: "\"processed_rows\":") else { return nil }
    return Int(event.data[range.upperBound...].prefix { $0.isNumber })
  }
}
