import Synchronization

/// All import jobs of one server, their idempotency keys, and their background tasks.
final class ImportStore: Sendable {
  private struct State {
    var jobs: [String: ImportJob] = [:]
    var jobsByIdempotencyKey: [String: String] = [:]
    var tasks: [String: Task<Void, Never>] = [:]
    var stopped = false
  }

  private let state = Mutex(State())

  /// The job with `id`, if any.
  func job(id: String) -> ImportJob? {
    state.withLock { $0.jobs[id] }
  }

  /// The job created earlier with `idempotencyKey`, if any.
  func job(idempotencyKey: String) -> ImportJob? {
    state.withLock { state in state.jobsByIdempotencyKey[idempotencyKey].flatMap { state.jobs[$0] } }
  }

  /// Registers a new job made by `make` and starts processing it, unless `idempotencyKey`
  /// already names a job: then that job is returned and `created` is false.
  func createJob(idempotencyKey: String?, make: (String) -> ImportJob) -> (job: ImportJob, created: Bool) {
    state.withLock { state in
      if let key = idempotencyKey, let id = state.jobsByIdempotencyKey[key], let job = state.jobs[id] {
        return (job, false)
      }
      let job = make(Self.newJobID())
      job.record(
        event: "queued",
        data: JSONText.object([
          ("job_id", .string(job.id)), ("status", .string(ImportStatus.queued.rawValue)),
          ("total_rows", .int(job.totalRows)),
        ]).compact)
      state.jobs[job.id] = job
      if let key = idempotencyKey { state.jobsByIdempotencyKey[key] = job.id }
      if !state.stopped {
        state.tasks[job.id] = Task { [weak self] in
          await ImportProcessor.run(job)
          self?.finished(jobID: job.id)
        }
      }
      return (job, true)
    }
  }

  /// Forgets the task of a job that ended.
  private func finished(jobID: String) {
    state.withLock { _ = $0.tasks.removeValue(forKey: jobID) }
  }

  /// Cancels every job still running; no new job will be processed afterwards.
  func stopAll() async {
    let tasks = state.withLock { state in
      state.stopped = true
      defer { state.tasks.removeAll() }
      return Array(state.tasks.values)
    }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// A fresh random id such as `imp_3f9a0c2b7d4e8a1f`.
  private static func newJobID() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() as UInt64
    let hex = String(value, radix: 16)
    return "imp_" + String(repeating: "0", count: 16 - hex.count) + hex
  }
}
