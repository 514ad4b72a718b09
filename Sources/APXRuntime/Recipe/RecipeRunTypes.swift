public import APXCore

/// How a step ended.
public enum RecipeStepState: String, Sendable, Hashable {
  /// It ran and every check passed.
  case ok
  /// Its call or a check failed.
  case failed
  /// Its `if` condition did not hold.
  case skipped
  /// It had finished in the run being resumed, so it was not run again.
  case resumed
  /// Ctrl-C stopped it while it ran (shown on its status line; a resumed run runs it again).
  case interrupted
}

/// The outcome of one `expect` check (for a foreach step, summed over its items).
public struct RecipeCheckResult: Sendable, Hashable {
  /// The step id.
  public var step: String
  /// What was checked: `status is 202`, `.body.status equals "complete"`.
  public var name: String
  /// Items (or 1) for which the check passed.
  public var passed: Int
  /// Items (or 1) for which it failed.
  public var failed: Int
  /// The first failure's explanation.
  public var failure: String?

  /// Makes a result.
  public init(step: String, name: String, passed: Int, failed: Int, failure: String? = nil) {
    self.step = step
    self.name = name
    self.passed = passed
    self.failed = failed
    self.failure = failure
  }
}

/// What one step did.
public struct RecipeStepRecord: Sendable {
  public var id: String
  /// `API.ENDPOINT`.
  public var call: String
  public var state: RecipeStepState
  /// The step's result as later steps see it (secrets masked by the journal, not here).
  public var result: JSONValue
  public var checks: [RecipeCheckResult]
  /// Seconds the step took.
  public var duration: Double
  /// Why it failed.
  public var error: APXError?
  /// Calls made (foreach items, `until` repetitions; 1 for a plain step).
  public var calls: Int
  /// Foreach items not run because the step's per-item `if` did not hold for them.
  public var skippedItems: Int
  /// Foreach items not run because they had finished in the run being resumed.
  public var resumedItems: Int
  /// Foreach items that failed and, under `continue_on_error`, did not stop the step.
  public var failedItems = 0
  /// What the step's calls went through: retries, reconnects, fallbacks to polling.
  public var notes: RecipeCallSummary

  /// Makes a record.
  public init(
    id: String, call: String, state: RecipeStepState, result: JSONValue, checks: [RecipeCheckResult], duration: Double,
    error: APXError? = nil, calls: Int, skippedItems: Int = 0, resumedItems: Int = 0,
    notes: RecipeCallSummary = RecipeCallSummary()
  ) {
    self.id = id
    self.call = call
    self.state = state
    self.result = result
    self.checks = checks
    self.duration = duration
    self.error = error
    self.calls = calls
    self.skippedItems = skippedItems
    self.resumedItems = resumedItems
    self.notes = notes
  }
}

/// Receives a run's progress: the CLI turns it into status lines on stderr,
/// or NDJSON on stdout under `--events`. Called from the run's tasks; must
/// not block.
public protocol RecipeObserver: AnyObject, Sendable {
  /// A step begins.
  func stepStarted(_ step: RecipeStep)
  /// Items of a foreach step or of a stream done so far (`total` when known).
  func stepProgress(_ step: RecipeStep, done: Int, total: Int?)
  /// One stream item (an SSE event, a gRPC message) of a step.
  func streamItem(_ step: RecipeStep, item: JSONValue)
  /// A step's call retried, reconnected, fell back to polling, reported progress or a note.
  func callNote(_ step: RecipeStep, note: RecipeCallNote)
  /// One foreach item or `until` repetition finished.
  func itemFinished(_ step: RecipeStep, index: Int, result: JSONValue)
  /// One foreach item failed (its call or its `if`).
  func itemFailed(_ step: RecipeStep, index: Int, error: APXError)
  /// How much of a step's request body (a file, a multipart upload) has been sent.
  func bodySent(_ step: RecipeStep, bytes: Int, total: Int?)
  /// A step ended.
  func stepFinished(_ step: RecipeStep, record: RecipeStepRecord)
}

extension RecipeObserver {
  /// Observers that only count finished items need not hear about failures.
  public func itemFailed(_ step: RecipeStep, index: Int, error: APXError) {}
  public func bodySent(_ step: RecipeStep, bytes: Int, total: Int?) {}
}

/// Options of one run.
public struct RecipeRunOptions: Sendable {
  /// `--test`: failed checks are counted and the run carries on; exit 9 at the end.
  public var testMode: Bool
  /// `--timeout`: per call.
  public var timeout: Double?
  /// `--retry N` / `--no-retry` for every call (a step's `retry` wins).
  public var maxAttemptsOverride: Int?
  /// `-H` headers for every call.
  public var headers: [HeaderField]
  /// `-v`: receives every call's request, response head, trailers, proxy and WebSocket frame lines
  /// (masked as in `apx call -v`).
  public var transportLog: (@Sendable (CallEvent) -> Void)?

  /// Makes options.
  public init(
    testMode: Bool = false, timeout: Double? = nil, maxAttemptsOverride: Int? = nil, headers: [HeaderField] = [],
    transportLog: (@Sendable (CallEvent) -> Void)? = nil
  ) {
    self.testMode = testMode
    self.timeout = timeout
    self.maxAttemptsOverride = maxAttemptsOverride
    self.headers = headers
    self.transportLog = transportLog
  }
}

/// Where one API's calls go (from `--base-url`, `--demo` or its environment).
public struct RecipeTarget: Sendable {
  public var api: APIDefinition
  public var baseURL: String
  public var environmentName: String
  /// Where the API's gRPC endpoints go when that is not `baseURL` (`apx run --mock`: the
  /// mock's gRPC server, beside its HTTP one).
  public var grpcBaseURL: String?

  /// Makes a target.
  public init(api: APIDefinition, baseURL: String, environmentName: String) {
    self.api = api
    self.baseURL = baseURL
    self.environmentName = environmentName
  }
}

/// The end of a run.
public struct RecipeRunResult: Sendable {
  /// The rendered `output` (nil when the recipe has none or the run failed).
  public var output: JSONValue?
  public var records: [RecipeStepRecord]
  public var checks: [RecipeCheckResult]
  /// Why the run stopped early (or the first failed check in test mode).
  public var failure: APXError?
  /// Ctrl-C or a cancelled task stopped it.
  public var interrupted: Bool
  /// Whether `apx run --resume` can continue it: false when its journal could not be written.
  public var resumable = true

  /// Makes a result.
  public init(
    output: JSONValue?, records: [RecipeStepRecord], checks: [RecipeCheckResult], failure: APXError?, interrupted: Bool
  ) {
    self.output = output
    self.records = records
    self.checks = checks
    self.failure = failure
    self.interrupted = interrupted
  }

  /// Checks passed and failed in all.
  public var checkCounts: (passed: Int, failed: Int) {
    checks.reduce((0, 0)) { ($0.0 + $1.passed, $0.1 + $1.failed) }
  }
}
