public import APXCore
import Dispatch
import Synchronization

/// The report stage of a run, fed by the run's events: status lines on
/// stderr (one per step, a progress bar on a terminal) and, under
/// `--events`, NDJSON on stdout (step starts, stream items, loop item results,
/// retries, reconnects, fallbacks, progress, step results), every line masked.
/// The JUnit report (`JUnitReport`) is built from the same records at the end.
/// Where the text goes is the caller's: the CLI hands in its stderr and stdout.
public final class RecipeRunReporter: RecipeObserver, Sendable {
  /// Writes (and flushes) text on the status stream (stderr).
  public typealias Write = @Sendable (String) -> Void

  private let status: Write
  private let events: Write?
  private let terminal: Bool
  private let colors: Bool
  /// Secrets masked in every line.
  public var mask: SecretMask { masks.withLock { $0 } }
  private let masks: Mutex<SecretMask>
  /// Every step of the recipe, in order (the report lists those that never ran).
  public let stepIDs: [String]
  private let drawing = Mutex(Drawing())
  private let eventLock = Mutex(())

  private struct Drawing {
    var progressShown = false
    var lastDraw: UInt64 = 0
    /// The step whose bar is drawn: when it began, its retries and failed items so far.
    var loop = RecipeStatusText.LoopProgress(done: 0, total: nil)
    var loopStep = ""
    var loopStart: UInt64 = 0
    /// A job's own progress (the endpoint's declared progress fields), drawn as `apx call`
    /// draws it, and its recent samples for the rate.
    var job = ProgressLine()
    var jobSamples = ProgressSamples()
    var jobStep = ""
  }

  /// Makes a reporter. `events` receives NDJSON lines (nil without `--events`);
  /// `terminal` draws progress bars and marks; `colors` colours the marks.
  public init(
    status: @escaping Write, events: Write?, terminal: Bool, colors: Bool, mask: SecretMask, stepIDs: [String]
  ) {
    self.status = status
    self.events = events
    self.terminal = terminal
    self.colors = colors
    self.masks = Mutex(mask)
    self.stepIDs = stepIDs
  }

  /// Registers another secret to mask in later lines (a token fetched during the run).
  public func addSecret(_ secret: String) { masks.withLock { $0.add(secret) } }

  public func stepStarted(_ step: RecipeStep) {
    emit(
      .object([
        JSONMember("type", .string("step_started")), JSONMember("step", .string(step.id)),
        JSONMember("call", .string(step.call)),
      ]))
  }

  public func stepProgress(_ step: RecipeStep, done: Int, total: Int?) {
    guard terminal else { return }
    draw(step, done: done, total: total, bytes: false)
  }

  /// A job's progress as its endpoint declares it (rows of an import, a percentage): the line
  /// `apx call` draws, `[#####.....]  45%  450/1000  120/s  ETA 4s`, after the step's name.
  private func jobProgress(_ step: RecipeStep, fraction: Double?, done: Double?, total: Double?) {
    guard terminal else { return }
    drawing.withLock { d in
      let now = DispatchTime.now().uptimeNanoseconds
      if d.jobStep != step.id {
        d.jobStep = step.id
        d.job = ProgressLine()
        d.jobSamples = ProgressSamples()
      }
      d.job.total = total ?? d.job.total
      d.job.done = done ?? d.job.done
      // A fraction the job does not give follows from its counts, as `apx call` shows it.
      d.job.fraction =
        fraction.map { min(max($0, 0), 1) }
        ?? d.job.done.flatMap { done in d.job.total.flatMap { $0 > 0 ? min(1, done / $0) : nil } } ?? d.job.fraction
      if done != nil || fraction != nil {
        (d.job.rate, d.job.eta) = d.jobSamples.record(
          now: Double(now) / 1e9, done: done, fraction: fraction, total: d.job.total)
      }
      let complete = d.job.fraction == 1
      guard d.job.hasContent, now - d.lastDraw > 50_000_000 || complete else { return }
      d.lastDraw = now
      d.progressShown = true
      let prefix = "… \(step.id)  "
      status("\r\u{1B}[2K" + prefix + d.job.render(width: max(20, 79 - prefix.count)))
    }
  }

  /// A step's request body going out: a byte bar on a terminal, as `apx call` draws it, once
  /// the upload has run 0.5 s or passed 1 MiB (a small body draws nothing). Not for a
  /// `foreach`, whose bar counts items.
  public func bodySent(_ step: RecipeStep, bytes: Int, total: Int?) {
    guard terminal, step.foreach == nil else { return }
    draw(step, done: bytes, total: total, bytes: true) { loop in bytes >= 1_048_576 || loop.elapsed >= 0.5 }
  }

  /// Records `step`'s progress and redraws its bar, at most every 50 ms (a fast loop must not
  /// flood the terminal) unless it is complete, and only once `worthShowing` holds.
  private func draw(
    _ step: RecipeStep, done: Int, total: Int?, bytes: Bool,
    worthShowing: (RecipeStatusText.LoopProgress) -> Bool = { _ in true }
  ) {
    drawing.withLock { d in
      let now = DispatchTime.now().uptimeNanoseconds
      Self.follow(step, in: &d, now: now)
      d.loop.bytes = bytes
      d.loop.done = done
      d.loop.total = total
      d.loop.elapsed = Double(now - d.loopStart) / 1e9
      guard worthShowing(d.loop), now - d.lastDraw > 50_000_000 || done == total else { return }
      d.lastDraw = now
      d.progressShown = true
      status(RecipeStatusText.progress(step: step, d.loop))
    }
  }

  public func itemFailed(_ step: RecipeStep, index: Int, error: APXError) {
    drawing.withLock { d in
      Self.follow(step, in: &d, now: DispatchTime.now().uptimeNanoseconds)
      d.loop.failures += 1
    }
  }

  /// Starts counting afresh when the progress is another step's.
  private static func follow(_ step: RecipeStep, in d: inout Drawing, now: UInt64) {
    guard d.loopStep != step.id else { return }
    d.loopStep = step.id
    d.loopStart = now
    d.loop = RecipeStatusText.LoopProgress(done: 0, total: nil)
  }

  public func streamItem(_ step: RecipeStep, item: JSONValue) {
    emit(
      .object([JSONMember("type", .string("item")), JSONMember("step", .string(step.id)), JSONMember("item", item)]))
  }

  public func callNote(_ step: RecipeStep, note: RecipeCallNote) {
    if case .retrying = note {
      drawing.withLock { d in
        Self.follow(step, in: &d, now: DispatchTime.now().uptimeNanoseconds)
        d.loop.retries += 1
      }
    }
    if case .progress(let fraction, let done, let total) = note {
      jobProgress(step, fraction: fraction, done: done, total: total)
    }
    emit(note.event(step: step.id))
  }

  public func itemFinished(_ step: RecipeStep, index: Int, result: JSONValue) {
    emit(
      .object([
        JSONMember("type", .string("item_result")), JSONMember("step", .string(step.id)),
        JSONMember("index", .int(index)), JSONMember("result", result),
      ]))
  }

  public func stepFinished(_ step: RecipeStep, record: RecipeStepRecord) {
    drawing.withLock { d in
      var text = ""
      if d.progressShown {
        text += "\r\u{1B}[2K"
        d.progressShown = false
      }
      // Masked: a step's error may quote a secret input sent in a URL or body.
      text += mask.mask(RecipeStatusText.line(step: step, record: record, terminal: terminal, colors: colors)) + "\n"
      status(text)
    }
    guard events != nil else { return }
    var members = [
      JSONMember("type", .string("step")), JSONMember("step", .string(step.id)), JSONMember("call", .string(step.call)),
      JSONMember("state", .string(record.state.rawValue)), JSONMember("result", record.result),
    ]
    if let error = record.error { members.append(JSONMember("error", .string(error.message))) }
    if record.notes.retries > 0 { members.append(JSONMember("retries", .int(record.notes.retries))) }
    if record.failedItems > 0 { members.append(JSONMember("failed_items", .int(record.failedItems))) }
    if record.notes.reconnects > 0 { members.append(JSONMember("reconnects", .int(record.notes.reconnects))) }
    if !record.notes.fallbacks.isEmpty {
      members.append(JSONMember("fell_back_to", .array(record.notes.fallbacks.map(JSONValue.string))))
    }
    emit(.object(members))
  }

  /// Writes one NDJSON line under `--events`, masked; nothing without it.
  public func emit(_ value: JSONValue) {
    guard let events else { return }
    let line = mask.mask(value.compactJSON) + "\n"
    eventLock.withLock { _ in events(line) }
  }

  /// Clears a progress bar left on screen.
  public func finish() {
    drawing.withLock { d in
      if d.progressShown { status("\r\u{1B}[2K") }
      d.progressShown = false
    }
  }
}
