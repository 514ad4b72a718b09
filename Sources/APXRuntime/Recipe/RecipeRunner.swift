public import APXCore
import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The run stage of the recipe pipeline, which is split as Hurl splits it:
///
/// 1. **parse**: `RecipeFile` loads the recipe and validates it against the
///    registry; `RecipeRunSetup` binds the inputs, finds the run to resume and
///    builds the secret mask. Nothing is sent before both succeed.
/// 2. **run**: this type. Steps in order, each step's result (trimmed to what
///    is read later) flowing into the scope of the next, streams consumed until
///    their stop condition, loops with bounded concurrency, every step and loop
///    item journaled (`RecipeJournalEntry`) so an interrupted run
///    (`RecipeInterruption`) can resume. Each call goes through the same
///    `Executor` as `apx call` (auth, then retry, then the transport); its
///    events reach a `StepCapture`, which builds the typed `RecipeCallResult`
///    the endpoint's `EndpointResultShape` describes and hands retries,
///    reconnects, fallbacks and progress on as `RecipeCallNote`s.
/// 3. **report**: the run's events go to a `RecipeObserver`
///    (`RecipeRunReporter`: status lines, `--events` NDJSON), and the records it
///    returns to `JUnitReport`; the CLI only maps the outcome to an exit status.
///
/// One `Executor` (one HTTP session, one token manager, one gRPC session) serves the whole run.
public struct RecipeRunner: Sendable {
  public let recipe: Recipe
  /// Where each API's calls go, by API name.
  public let targets: [String: RecipeTarget]
  public let executor: Executor
  public let options: RecipeRunOptions
  public let journal: RecipeJournal?
  public let observer: (any RecipeObserver)?
  /// The run's id (`${run.id}`): stable across resumes, so idempotency keys built from it are too.
  public let runID: String
  /// What a resumed run already did.
  public let resume: RecipeJournalRecord?
  /// Folder of the recipe file, for relative file paths that do not exist relative to the working directory.
  public let recipeDirectory: String?

  let laterRetention: [String: RecipeRetention]

  /// Makes a runner.
  public init(
    recipe: Recipe, targets: [String: RecipeTarget], executor: Executor, options: RecipeRunOptions = .init(),
    journal: RecipeJournal?, observer: (any RecipeObserver)?, runID: String, resume: RecipeJournalRecord? = nil,
    recipeDirectory: String? = nil
  ) {
    self.recipe = recipe
    self.targets = targets
    self.executor = executor
    self.options = options
    self.journal = journal
    self.observer = observer
    self.runID = runID
    self.resume = resume
    self.recipeDirectory = recipeDirectory
    self.laterRetention = recipe.laterRetention()
  }

  /// The scope a run starts with.
  public func initialScope(inputs: JSONValue) -> RecipeScope {
    let env = executor.environment
    return RecipeScope(
      environment: { env[$0] }, inputs: inputs,
      run: .object([JSONMember("id", .string(runID)), JSONMember("recipe", .string(recipe.name))]))
  }

  /// Runs every step and renders the output. Never throws: failures are in the result.
  public func run(inputs: JSONValue) async -> RecipeRunResult {
    var scope = initialScope(inputs: inputs)
    var records: [RecipeStepRecord] = []
    var checks: [RecipeCheckResult] = []
    var failure: APXError?
    var interrupted = false
    for step in recipe.steps {
      if Task.isCancelled {
        interrupted = true
        break
      }
      if let done = resume?.finished[step.id] {
        scope.steps[step.id] = done
        let record = RecipeStepRecord(
          id: step.id, call: step.call, state: .resumed, result: done, checks: [], duration: 0, error: nil, calls: 0)
        observer?.stepFinished(step, record: record)
        records.append(record)
        continue
      }
      observer?.stepStarted(step)
      let started = DispatchTime.now().uptimeNanoseconds
      let notes = StepNotes()
      var record: RecipeStepRecord
      do {
        record = try await runStep(step, scope: scope, notes: notes)
      } catch {
        let apx = Self.apxError(error, step: step)
        if apx.status == .interrupted {
          interrupted = true
          try? journal?.append(.interrupted(step: step.id))
          records.append(reportInterrupted(step, started: started, notes: notes, error: apx))
          break
        }
        record = RecipeStepRecord(
          id: step.id, call: step.call, state: .failed,
          result: RecipeStepResult.failed(apx.message), checks: [], duration: 0, error: apx, calls: 1)
      }
      record.duration = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
      record.notes = notes.current
      if Task.isCancelled, record.state == .failed {
        interrupted = true
        records.append(
          reportInterrupted(step, started: started, notes: notes, error: Self.apxError(CancellationError(), step: step))
        )
        break
      }
      let kept = (laterRetention[step.id] ?? .none).trim(record.result)
      scope.steps[step.id] = kept
      checks += record.checks
      observer?.stepFinished(step, record: record)
      records.append(record)
      do {
        try journal?.append(
          .step(id: step.id, state: record.state, result: kept, durationMs: Int(record.duration * 1000)),
          sync: !safeToRepeat(step))
      } catch {
        // Nothing more is sent once the journal cannot record it.
        failure = error
        break
      }
      if record.state == .failed {
        let error = record.error ?? APXError(.expectation, "step \"\(step.id)\" failed")
        if failure == nil { failure = error }
        let checkOnly = record.error?.status == .expectation && !record.checks.isEmpty && options.testMode
        if !step.continueOnError && !checkOnly { break }
      }
    }
    var output: JSONValue?
    if failure == nil || (options.testMode && records.count == recipe.steps.count), !interrupted,
      let template = recipe.output
    {
      do {
        output = try Template.renderStrings(in: template, resolve: scope.resolve)
      } catch {
        var e = error
        e.file = recipe.file
        e.location = recipe.outputLocation
        e.message = "the output: " + e.message
        if failure == nil { failure = e }
      }
    }
    let state = interrupted ? "interrupted" : (failure == nil ? "ok" : "failed")
    try? journal?.append(.end(state: state, at: RecipeJournal.timestamp()), sync: true)
    var result = RecipeRunResult(
      output: output, records: records, checks: checks, failure: failure, interrupted: interrupted)
    if let lost = journal?.failure {
      // Whatever else went wrong, the lost journal is what the user must act on: no resume can follow.
      result.failure = lost
      result.output = nil
      result.resumable = false
    }
    return result
  }

  /// Tells the observer that Ctrl-C stopped `step` while it ran, as a step of its own state
  /// (its status line and `--events`), and returns its record for the report. Nothing of it is
  /// kept in the scope or journaled as done: a resumed run runs it again.
  func reportInterrupted(_ step: RecipeStep, started: UInt64, notes: StepNotes, error: APXError)
    -> RecipeStepRecord
  {
    var record = RecipeStepRecord(
      id: step.id, call: step.call, state: .interrupted, result: RecipeStepResult.failed(error.message), checks: [],
      duration: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, error: error, calls: 0)
    record.notes = notes.current
    observer?.stepFinished(step, record: record)
    return record
  }

  /// Runs one step: its `if`, then a plain call, a loop, or a repeated call.
  /// (A foreach step's `if` that reads the item is left to the loop, per item.)
  func runStep(_ step: RecipeStep, scope: RecipeScope, notes: StepNotes) async throws -> RecipeStepRecord {
    if let condition = step.condition, !step.conditionIsPerItem {
      let holds = try RecipeCheckEvaluator.holds(condition, on: .null, resolve: scope.resolve)
      if !holds {
        return RecipeStepRecord(
          id: step.id, call: step.call, state: .skipped,
          result: RecipeStepResult.skipped, checks: [], duration: 0,
          error: nil, calls: 0)
      }
    }
    guard let target = targets[step.api], let found = target.api.endpoint(named: step.endpoint) else {
      throw APXError(
        .invalidDefinition, "step \"\(step.id)\": \(step.call) is not in the registry",
        hint: "run `apx validate` on the recipe")
    }
    let endpoint = found
    if step.foreach != nil {
      return try await runForeach(step, target: target, endpoint: endpoint, scope: scope, notes: notes)
    }
    if step.until != nil, !step.resultShape(of: endpoint).stream {
      return try await runRepeated(step, target: target, endpoint: endpoint, scope: scope, notes: notes)
    }
    // Pages are not resumed mid-way (a resumed run starts the step again from its first page).
    let outcome = try await callOnce(
      step, target: target, endpoint: endpoint, scope: scope, streamJournal: !step.all, notes: notes)
    var record = RecipeStepRecord(
      id: step.id, call: step.call, state: .ok, result: outcome.result,
      checks: outcome.checks.map {
        RecipeCheckResult(
          step: step.id, name: $0.name, passed: $0.passed ? 1 : 0, failed: $0.passed ? 0 : 1, failure: $0.failure)
      },
      duration: 0, error: nil, calls: 1)
    if let failed = outcome.checks.first(where: { !$0.passed }) {
      record.state = .failed
      record.error = APXError(
        .expectation, "step \"\(step.id)\" (\(step.call)): \(failed.failure ?? failed.name)",
        hint: "the step's result: \(Self.preview(outcome.result))", file: recipe.file, location: step.location)
    }
    return record
  }

  /// Maps any error to an `APXError`; cancellation becomes `.interrupted`.
  static func apxError(_ error: any Error, step: RecipeStep) -> APXError {
    if error is CancellationError || Task.isCancelled {
      return APXError(.interrupted, "interrupted during step \"\(step.id)\"", hint: "resume with apx run --resume")
    }
    // A loop item's error is mapped once in its task; the loop then rethrows it as is.
    if let e = error as? StepFailure { return e.error }
    if var e = error as? APXError {
      e.message = "step \"\(step.id)\" (\(step.call)): " + e.message
      return e
    }
    if let e = error as? APXErrors, var first = e.errors.first {
      first.message = "step \"\(step.id)\" (\(step.call)): " + first.message
      return first
    }
    return APXError(.internalFailure, "step \"\(step.id)\" (\(step.call)): \(error)")
  }

  /// A short, one-line view of a value for hints.
  static func preview(_ value: JSONValue) -> String {
    let text = value.compactJSON
    return text.count > 300 ? String(text.prefix(300)) + "…" : text
  }

  /// Whether a step may run again harmlessly after a crash (a GET, an idempotent
  /// endpoint, one whose recipe sets an `Idempotency-Key` header): its journal
  /// line need not be forced to disk. Steps that are not safe to repeat are
  /// fsync'd, so `--resume` never repeats them; the per-step fsync was most of
  /// a 1,000-step recipe's overhead (1.01 ms per step on disk vs 0.34 on tmpfs).
  ///
  /// An endpoint's `idempotency_key: true` does not count: its key is a fresh
  /// UUID per call, so a resumed run (another process) would send a new one.
  /// A key the recipe builds from `${run.id}` is the same on resume.
  func safeToRepeat(_ step: RecipeStep) -> Bool {
    guard let endpoint = targets[step.api]?.api.endpoint(named: step.endpoint) else { return false }
    return Self.safeToRepeat(step, endpoint: endpoint)
  }

  /// `safeToRepeat` for a step that calls `endpoint`.
  static func safeToRepeat(_ step: RecipeStep, endpoint: Endpoint) -> Bool {
    guard endpoint.kind.isHTTPRequest else { return false }
    if step.headers.contains(where: { $0.key.lowercased() == "idempotency-key" }) { return true }
    return isRetrySafe(method: endpoint.method, idempotent: endpoint.idempotent, hasIdempotencyKey: false)
  }

  /// Whether each call of `step` (on `api`) is journaled as `started` before it goes out, so
  /// that `--resume` refuses to send it again when no outcome follows: a call that is not safe
  /// to repeat, except a stream, which a resume continues from its last journaled event.
  public static func recordsStart(_ step: RecipeStep, api: APIDefinition?) -> Bool {
    guard let endpoint = api?.endpoint(named: step.endpoint), !endpoint.resultShape.stream else { return false }
    return !safeToRepeat(step, endpoint: endpoint)
  }
}
