import APXServing
import HTTPTypes
import Hummingbird

/// The BooksTrack V2 import API: capabilities, CSV upload, job status and its SSE stream.
struct BooksRoutes: Sendable {
  let imports: ImportStore
  let stats: StatsRecorder
  let options: DemoServerOptions
  let stopping: StopSignal

  /// Adds the routes under `/api/v2` of `api`.
  func register(on api: RouterGroup<ServerRequestContext>) {
    api.get("capabilities") { _, _ in capabilities() }
    api.post("imports") { request, _ in try await createImport(request) }
    api.get("imports/{id}") { _, context in
      let job = try job(context)
      return DemoResponse.json(job.statusJSON)
    }
    api.get("imports/{id}/stream") { request, context in
      try ImportStream(job: try job(context), stats: stats, stopping: stopping).response(
        to: request, channel: context.channel)
    }
  }

  private func job(_ context: ServerRequestContext) throws -> ImportJob {
    let id = try context.parameters.require("id")
    guard let job = imports.job(id: id) else {
      throw DemoError.notFound("no import job with id '\(id)'")
    }
    return job
  }

  private func capabilities() -> Response {
    DemoResponse.json(
      .object([
        ("api", .string("books")),
        ("version", .string("2")),
        ("max_upload_bytes", .int(DemoLimits.maxUploadBytes)),
        ("formats", .array([.string("text/csv")])),
        ("upload_encodings", .array([.string("text/csv"), .string("multipart/form-data")])),
        ("required_columns", .array([.string("title")])),
        ("idempotency_header", .string("Idempotency-Key")),
        ("auth_required", .bool(options.requireAuth)),
        ("sse", .object([("retry_ms", .int(1000)), ("keep_alive_seconds", .int(2))])),
        (
          "fault_injection",
          .array(["row_delay_ms", "drop_every", "drop_mode", "refuse_stream", "fail_at"].map { .string($0) })
        ),
      ]))
  }

  private func createImport(_ request: Request) async throws -> Response {
    let key = request.header("Idempotency-Key")
    if let key, let existing = imports.job(idempotencyKey: key) {
      return accepted(existing, replayed: true)
    }
    let faults = try ImportFaults(request: request, defaultRowDelay: options.rowDelay)
    let scan = try await ImportUpload.scan(request)
    let (job, created) = imports.createJob(idempotencyKey: key) { id in
      ImportJob(id: id, scan: scan, faults: faults)
    }
    return accepted(job, replayed: !created)
  }

  private func accepted(_ job: ImportJob, replayed: Bool) -> Response {
    stats.update { stats in
      if replayed { stats.idempotentReplays += 1 } else { stats.importsCreated += 1 }
    }
    let statusURL = "/api/v2/imports/\(job.id)"
    var headers: HTTPFields = [.location: statusURL]
    if replayed { headers[HTTPField.Name("Idempotent-Replayed")!] = "true" }
    return DemoResponse.json(
      .object([
        ("job_id", .string(job.id)),
        // A new job is reported as queued even if its task already started; replays tell the truth.
        ("status", .string(replayed ? job.snapshot.status.rawValue : ImportStatus.queued.rawValue)),
        ("sse_url", .string(statusURL + "/stream")),
        ("status_url", .string(statusURL)),
        ("total_rows", .int(job.totalRows)),
      ]),
      status: .accepted,
      headers: headers
    )
  }
}
