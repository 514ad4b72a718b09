/// Advances an import job in the background: queued -> processing -> complete | failed.
///
/// Work is simulated: each row "takes" the job's row delay. Progress is reported in
/// at most `maxProgressEvents` steps so that huge files do not flood the event list.
enum ImportProcessor {
  /// Upper bound on `progress` events per job.
  static let maxProgressEvents = 100

  /// Runs `job` to its end; returns early (leaving the job unfinished) when cancelled.
  static func run(_ job: ImportJob) async {
    let clock = ContinuousClock()
    let delay = max(0, job.faults.rowDelay)
    do {
      // Stay visibly queued for one row's time before starting.
      try await sleep(seconds: delay, clock: clock)
      job.record(event: "started", data: startedData(job)) { $0.status = .processing }

      let total = job.totalRows
      let failRow = job.faults.failAt.map { min(total, Int((Double(total) * $0).rounded(.down))) }
      let step = max(1, (total + maxProgressEvents - 1) / maxProgressEvents)
      let start = clock.now
      var processed = 0
      while processed < total || failRow == processed {
        if let failRow, processed == failRow {
          let message = "import failed at row \(failRow) of \(total) (fault injected with fail_at)"
          job.record(event: "error", data: JSONText.object([("message", .string(message))]).compact) {
            $0.status = .failed
            $0.errorMessage = message
          }
          return
        }
        var next = min(total, processed + step)
        if let failRow, processed < failRow, next > failRow { next = failRow }
        // Sleep to an absolute deadline so that many short steps do not drift.
        try await clock.sleep(until: start.advanced(by: .seconds(delay * Double(next))))
        processed = next
        let rows = processed
        job.record(event: "progress", data: progressData(processed: rows, total: total)) {
          $0.processedRows = rows
        }
      }
      let summary = job.resultSummary
      job.record(event: "complete", data: summary.compact) {
        $0.status = .complete
        $0.result = summary
      }
    } catch {
      return  // cancelled: the server is stopping
    }
  }

  private static func sleep(seconds: Double, clock: ContinuousClock) async throws {
    if seconds > 0 { try await clock.sleep(for: .seconds(seconds)) }
  }

  /// Pretty, multi-line JSON on purpose: clients must join several `data:` lines.
  private static func startedData(_ job: ImportJob) -> String {
    JSONText.object([
      ("job_id", .string(job.id)),
      ("status", .string(ImportStatus.processing.rawValue)),
      ("total_rows", .int(job.totalRows)),
      ("row_delay_ms", .double(job.faults.rowDelay * 1000)),
    ]).pretty
  }

  private static func progressData(processed: Int, total: Int) -> String {
    JSONText.object([
      ("progress", .double(ImportJob.progress(processed: processed, total: total))),
      ("processed_rows", .int(processed)),
      ("total_rows", .int(total)),
    ]).compact
  }
}
