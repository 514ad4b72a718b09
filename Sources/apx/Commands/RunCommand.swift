import APXCore
import APXRuntime
import ArgumentParser
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `apx run RECIPE.json [name=value ...]`: runs a recipe (load -> validate
/// against the registry -> resolve inputs -> run steps -> print the output).
struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a recipe: chained calls with their data flowing forward; prints the recipe's output as JSON.",
    discussion: """
      Inputs: name=value, name:=json, name=@file (a file input takes the path), name=@-.path (from stdin JSON).
      stderr shows one line per step; stdout carries only the output (or NDJSON with --events).
      Every run keeps a journal in the state directory (runs/<run-id>.jsonl, secrets masked);
      after Ctrl-C or a failure, `apx run RECIPE --resume [RUN_ID]` skips the steps that finished.
      --test counts checks (exit 9 on any failure); --report junit FILE writes JUnit XML.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The recipe file.", valueName: "RECIPE"), completion: .file(extensions: ["json"]))
  var recipePath: String

  @Argument(
    help: ArgumentHelp(
      "Inputs: name=value, name:=json, name=@file; with --resume, optionally a RUN_ID.", valueName: "INPUT"))
  var params: [String] = []

  @Flag(
    name: .customLong("events"),
    help: "Print every step's result, stream item, retry, reconnect and fallback as NDJSON on stdout.")
  var events = false

  @Flag(name: .customLong("dry-run"), help: "Print the requests that would be sent (secrets masked) and send nothing.")
  var dryRun = false

  @Flag(name: .customLong("test"), help: "Count checks passed and failed; exit 9 when any failed.")
  var test = false

  @Option(
    name: .customLong("report"), parsing: .upToNextOption,
    help: ArgumentHelp("Write a report: junit FILE.", valueName: "FORMAT FILE"))
  var report: [String] = []

  @Flag(
    name: .customLong("resume"),
    help: "Resume the latest unfinished run of this recipe (or the RUN_ID given among the inputs).")
  var resume = false

  func validate() throws {
    if !report.isEmpty {
      guard report.count == 2, report[0] == "junit" else {
        throw ValidationError("--report takes a format and a file: --report junit FILE")
      }
    }
    if dryRun && resume { throw ValidationError("--dry-run and --resume cannot be used together") }
  }

  func run() async throws {
    let context = Context.shared
    let loaded = try RecipeFile.load(
      path: recipePath, registryDirectories: context.registryDirectories(global.registry))
    let recipe = loaded.recipe

    var resumeID: String?
    var inputArguments: [String] = []
    for p in params {
      if resume, !p.contains("="), resumeID == nil { resumeID = p } else { inputArguments.append(p) }
    }
    var given = try RecipeInputArguments.read(inputArguments, recipe: recipe)

    guard let state = UserDirectories.stateDirectory(environment: context.environment) else {
      throw APXError(.usage, "no state directory for the run journal", hint: "set APX_STATE_DIR or HOME")
    }
    var record: RecipeJournalRecord?
    if resume {
      record = try RecipeResume.find(state: state, runID: resumeID, recipePath: loaded.absolutePath)
      if let record {
        let givenNames = Set(given.map(\.name))
        for name in record.secretInputs where !givenNames.contains(name) {
          throw APXError(
            .usage, "the secret input \"\(name)\" is not kept in the journal",
            hint: "pass \(name)=... again with --resume")
        }
        let earlier = record.inputs.filter {
          !givenNames.contains($0.key) && !record.secretInputs.contains($0.key) && $0.value != .null
        }
        given = earlier.map { RecipeInputBinder.Given(name: $0.key, value: $0.value) } + given
      }
    }
    let runID = record?.runID ?? RecipeJournal.newRunID()
    let environment = context.environment
    let runValues = JSONValue.object([JSONMember("id", .string(runID)), JSONMember("recipe", .string(recipe.name))])
    let inputs = try RecipeInputBinder.bind(recipe, given: given) { ref throws(APXError) -> JSONValue? in
      switch ref.namespace {
      case "env": return ref.variable.flatMap { environment[$0] }.map(JSONValue.string)
      case "run": return try ref.path.selectStrictly(in: runValues).first
      default:
        throw APXError(
          .usage, "\(ref) cannot be used in an input's default", hint: "defaults may use ${env:NAME} and ${run.id}")
      }
    }
    let mask = RecipeSecrets.mask(
      recipe: recipe, inputs: inputs, apis: loaded.registry.apis.values.map { $0 }, environment: environment)

    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    let reporter = StepStatusReporter(
      context: context, events: events, terminal: context.stderrIsTerminal, mask: mask, stepIDs: recipe.steps.map(\.id))
    var transportLog: (@Sendable (CallEvent) -> Void)?
    if global.verbose {
      let stderr = context.stderr
      let recipeMask = mask
      transportLog = { event in
        // Masked again with the recipe's secrets (secret inputs), on top of the call's own mask.
        guard let text = VerboseLines.text(for: event) else { return }
        stderr.write(recipeMask.mask(text))
        stderr.flush()
      }
    }
    let options = RecipeRunOptions(
      testMode: test, timeout: global.timeout, maxAttemptsOverride: global.noRetry ? 1 : global.retry,
      headers: global.headerFields, transportLog: transportLog)
    let recipeDirectory = (loaded.absolutePath as NSString).deletingLastPathComponent

    let result: RecipeRunResult? = try await DemoBackend.withOptionalDemo(global.demo) { demo in
      var targets: [String: RecipeTarget] = [:]
      for (name, api) in loaded.registry.apis {
        let resolved = try BaseURLResolver.resolve(
          api: api, environment: global.environment, override: global.baseURL, demo: demo,
          processEnvironment: environment)
        targets[name] = RecipeTarget(api: api, baseURL: resolved.baseURL, environmentName: resolved.environmentName)
      }
      if dryRun {
        let lines = try RecipeDryRun(
          recipe: recipe, targets: targets, environment: environment, recipeDirectory: recipeDirectory
        )
        .requests(inputs: inputs, runID: runID, mask: mask)
        for line in lines { context.stdout.write(JSONPrinter(style: .compact).string(line) + "\n") }
        return nil
      }
      let journal = try RecipeJournal(stateDirectory: state, runID: runID, mask: mask)
      journal.append(
        .start(
          RecipeJournalStart(
            runID: runID, recipePath: loaded.absolutePath, name: recipe.name,
            inputs: RecipeSecrets.journalInputs(recipe: recipe, inputs: inputs).objectMembers ?? [],
            secretInputs: recipe.inputs.filter(\.secret).map(\.name), resumed: record != nil,
            at: RecipeJournal.timestamp())), sync: true)
      if record != nil { context.warn("apx: resuming run \(runID)") }
      return try await HTTPSession.with(global.sessionOptions(environment)) { session in
        // One token manager per run: every step shares one token and one refresh.
        let tokens = TokenManager(
          session: session, environment: environment, store: TokenFileStore.standard(environment: environment),
          timeout: global.timeout)
        // One gRPC session (schema cache, clients) for the whole run, like the one HTTP session.
        return try await GRPCSession.with(global.grpcSettings(environment)) { grpc in
          let executor = Executor(session: session, grpc: grpc, environment: environment, tokens: tokens)
          let runner = RecipeRunner(
            recipe: recipe, targets: targets, executor: executor, options: options, journal: journal,
            observer: reporter, runID: runID, resume: record, recipeDirectory: recipeDirectory)
          return await InterruptibleRun.run { await runner.run(inputs: inputs) }
        }
      }
    }
    guard let result else { return }
    reporter.finish()
    try finish(result, runID: runID, reporter: reporter, context: context)
  }

  /// Prints the output, the test summary and the report; maps the outcome to the exit status.
  private func finish(_ result: RecipeRunResult, runID: String, reporter: StepStatusReporter, context: Context) throws {
    if let output = result.output {
      if events {
        reporter.emit(.object([JSONMember("type", .string("output")), JSONMember("output", output)]))
      } else {
        try ValuePrinter.print(output, global: global, context: context)
      }
    }
    context.stdout.flush()
    let counts = result.checkCounts
    if report.count == 2 {
      let xml = JUnitReport(
        recipe: recipePath, result: result, stepIDs: reporter.stepIDs, mask: reporter.mask
      ).xml()
      do {
        try xml.write(toFile: report[1], atomically: true, encoding: .utf8)
      } catch {
        throw APXError(
          .usage, "cannot write the report \(report[1])", hint: "check the folder exists and is writable",
          cause: "\(error)")
      }
    }
    if test { context.warn("\(counts.passed) passed, \(counts.failed) failed") }
    if result.interrupted {
      throw APXError(
        .interrupted, "the run \(runID) was interrupted",
        hint: "resume it with: apx run \(recipePath) --resume \(runID)")
    }
    if var failure = result.failure {
      // A secret input may sit in a URL or a body the call's own mask did not know about.
      failure.message = reporter.mask.mask(failure.message)
      failure.cause = failure.cause.map(reporter.mask.mask)
      failure.hint = failure.hint.map(reporter.mask.mask)
      // Whatever failed, the journal lets the run resume without repeating finished steps.
      failure.hint =
        (failure.hint.map { $0 + "\n  " } ?? "")
        + "fix the cause, then resume with: apx run \(recipePath) --resume \(runID)"
      if test, counts.failed > 0, failure.status == .expectation {
        throw ExitCode(ExitStatus.expectation.code)
      }
      throw failure
    }
    if test, counts.failed > 0 { throw ExitCode(ExitStatus.expectation.code) }
  }
}

/// A recipe file loaded and checked against the registry.
struct RecipeFile {
  var recipe: Recipe
  var registry: RecipeRegistry
  var absolutePath: String
  var document: JSONDocument

  /// Loads `path`, loads the APIs its steps call, and validates it completely.
  /// - Throws: `APXErrors` (exit 3) with every problem, before anything is sent.
  static func load(path: String, registryDirectories: [String]) throws -> RecipeFile {
    var reader = try DocumentReader.parse(try FileBytes.read(path), file: path)
    let recipe = try RecipeLoader.load(&reader)
    let files = RegistryFiles(directories: registryDirectories)
    var apis: [String: APIDefinition] = [:]
    var failures: [String: APXError] = [:]
    for name in Set(recipe.steps.map(\.api)) where !name.isEmpty {
      do {
        apis[name] = try files.load(api: name)
      } catch let e as APXErrors {
        if let first = e.errors.first { failures[name] = first }
      } catch let e as APXError {
        // A missing API is reported by the validator with suggestions; other problems as they are.
        if e.status != .usage { failures[name] = e }
      }
    }
    let registry = RecipeRegistry(apis: apis, known: files.list().map(\.api), failures: failures)
    let errors = RecipeValidator.validate(recipe, registry: registry, document: reader.document)
    if !errors.isEmpty { throw APXErrors(errors) }
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return RecipeFile(
      recipe: recipe, registry: registry, absolutePath: (absolute as NSString).standardizingPath,
      document: reader.document)
  }
}

/// Turns `name=value` arguments into recipe input values.
enum RecipeInputArguments {
  static func read(_ arguments: [String], recipe: Recipe) throws -> [RecipeInputBinder.Given] {
    var stdin = StdinDocument()
    var out: [RecipeInputBinder.Given] = []
    for text in arguments {
      let argument = try ParamArgument(parsing: text)
      let input = recipe.input(named: argument.name)
      switch argument.value {
      case .text(let s): out.append(.init(name: argument.name, value: .string(s)))
      case .json(let v): out.append(.init(name: argument.name, value: v))
      case .file(let path):
        if input?.type == .file || input == nil {
          out.append(.init(name: argument.name, value: .string(path), isFile: true))
        } else {
          var text = String(decoding: try FileBytes.read(path), as: UTF8.self)
          if text.hasSuffix("\n") { text.removeLast() }
          out.append(.init(name: argument.name, value: .string(text)))
        }
      case .jsonFile(let path):
        do {
          out.append(.init(name: argument.name, value: try JSONParser.parse(try FileBytes.read(path))))
        } catch let e as JSONSyntaxError {
          throw APXError(
            .usage, "\(path) is not valid JSON: \(e.message) at \(e.location)",
            hint: "\(argument.name):=@file needs a JSON file")
        }
      case .stdinPath(let pathText):
        let document = try stdin.read()
        guard let value = try JSONPath(parsing: pathText).selectValue(in: document), value != .null else {
          throw APXError(.usage, "\(argument.name)=@-\(pathText): stdin has no value at \(pathText)")
        }
        out.append(.init(name: argument.name, value: value))
      }
    }
    for g in out where g.isFile {
      if recipe.input(named: g.name)?.type == .file, let path = g.value.stringValue,
        !FileManager.default.fileExists(atPath: path)
      {
        throw APXError(.usage, "\(path) does not exist (input \(g.name))", hint: "check the path")
      }
    }
    return out
  }
}

/// Finds the run to resume.
enum RecipeResume {
  static func find(state: String, runID: String?, recipePath: String) throws -> RecipeJournalRecord {
    if let runID {
      let path = state + "/runs/" + runID + ".jsonl"
      guard FileManager.default.fileExists(atPath: path) else {
        throw APXError(.usage, "no run \(runID) in \(state)/runs", hint: "the run id is printed when a run stops early")
      }
      let record = try RecipeJournalRecord.read(path: path)
      if record.recipePath != recipePath {
        throw APXError(
          .usage, "the run \(runID) belongs to \(record.recipePath), not \(recipePath)",
          hint: "run that recipe with --resume \(runID)")
      }
      if record.completed {
        throw APXError(.usage, "the run \(runID) already completed", hint: "run the recipe again without --resume")
      }
      return record
    }
    guard let record = RecipeJournalRecord.latestUnfinished(stateDirectory: state, recipePath: recipePath) else {
      throw APXError(.usage, "no unfinished run of \(recipePath) to resume", hint: "run it without --resume")
    }
    return record
  }
}

/// What must never reach a journal, an event line or dry-run output.
enum RecipeSecrets {
  /// Secret inputs' values and the values of every environment variable the
  /// recipe or its APIs' auth settings read.
  static func mask(recipe: Recipe, inputs: JSONValue, apis: [APIDefinition], environment: [String: String])
    -> SecretMask
  {
    var mask = SecretMask()
    for input in recipe.inputs where input.secret {
      if let v = inputs[input.name], v != .null { mask.add(Template.interpolated(v)) }
    }
    var texts: [JSONValue] = []
    for step in recipe.steps {
      texts.append(.object(step.with))
      texts.append(.object(step.headers))
      if let b = step.body { texts.append(b) }
    }
    for input in recipe.inputs { if let d = input.defaultValue { texts.append(d) } }
    for api in apis {
      switch api.auth {
      case .bearer(let token)?: texts.append(.string(token))
      case .apiKey(_, _, let value)?: texts.append(.string(value))
      case .basic(_, let password)?: texts.append(.string(password))
      case .oauth2ClientCredentials(let c)?: texts.append(.string(c.clientSecret))
      default: break
      }
    }
    for text in texts {
      for (_, ref) in (try? Template.references(in: text)) ?? [] where ref.namespace == "env" {
        if let name = ref.variable, let value = environment[name] ?? ref.fallback { mask.add(value) }
      }
    }
    return mask
  }

  /// The inputs as journaled: secret ones masked.
  static func journalInputs(recipe: Recipe, inputs: JSONValue) -> JSONValue {
    guard case .object(let members) = inputs else { return inputs }
    return .object(
      members.map { m in recipe.input(named: m.key)?.secret == true ? JSONMember(m.key, .string("***")) : m })
  }
}

/// Runs a recipe so that Ctrl-C (SIGINT) cancels it instead of killing the
/// process: the runner then journals the interruption and the command exits 130.
enum InterruptibleRun {
  static func run(_ body: @escaping @Sendable () async -> RecipeRunResult) async -> RecipeRunResult {
    let task = Task { await body() }
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { task.cancel() }
    source.resume()
    let result = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    source.cancel()
    signal(SIGINT, SIG_DFL)
    return result
  }
}

/// Shows a run on stderr (one line per step; a progress bar on a terminal)
/// and, under `--events`, writes every step result and stream item as NDJSON
/// on stdout (secrets masked).
final class StepStatusReporter: RecipeObserver, @unchecked Sendable {
  let context: Context
  let events: Bool
  let terminal: Bool
  let colors: Bool
  let mask: SecretMask
  /// Every step of the recipe, in order (the report lists those that never ran).
  let stepIDs: [String]
  private let lock = Lock()
  private var progressShown = false
  private var lastDraw: UInt64 = 0

  init(context: Context, events: Bool, terminal: Bool, mask: SecretMask, stepIDs: [String] = []) {
    self.context = context
    self.stepIDs = stepIDs
    self.events = events
    self.terminal = terminal
    self.colors = context.useColor(.auto, terminal: terminal)
    self.mask = mask
  }

  func stepStarted(_ step: RecipeStep) {
    if events {
      emit(
        .object([
          JSONMember("type", .string("step_started")), JSONMember("step", .string(step.id)),
          JSONMember("call", .string(step.call)),
        ]))
    }
  }

  func stepProgress(_ step: RecipeStep, done: Int, total: Int?) {
    guard terminal else { return }
    lock.withLock {
      // Redraw at most every 50 ms: a fast loop must not flood the terminal.
      let now = DispatchTime.now().uptimeNanoseconds
      guard now - lastDraw > 50_000_000 || done == total else { return }
      lastDraw = now
      progressShown = true
      context.stderr.write(RecipeStatusText.progress(step: step, done: done, total: total))
      context.stderr.flush()
    }
  }

  func streamItem(_ step: RecipeStep, item: JSONValue) {
    if events {
      emit(
        .object([JSONMember("type", .string("item")), JSONMember("step", .string(step.id)), JSONMember("item", item)]))
    }
  }

  func callNote(_ step: RecipeStep, note: RecipeCallNote) {
    if case .progress(let fraction, let done, let total) = note {
      // A job's own progress: counts when it gives them, else percent.
      if let done {
        stepProgress(step, done: Int(done), total: total.map { Int($0) })
      } else if let fraction {
        stepProgress(step, done: Int((fraction * 100).rounded()), total: 100)
      }
    }
    if events { emit(note.event(step: step.id)) }
  }

  func itemFinished(_ step: RecipeStep, index: Int, result: JSONValue) {
    if events {
      emit(
        .object([
          JSONMember("type", .string("item_result")), JSONMember("step", .string(step.id)),
          JSONMember("index", .int(index)),
          JSONMember("result", result),
        ]))
    }
  }

  func stepFinished(_ step: RecipeStep, record: RecipeStepRecord) {
    lock.withLock {
      if progressShown {
        context.stderr.write("\r\u{1B}[2K")
        progressShown = false
      }
      // Masked: a step's error may quote a secret input sent in a URL or body.
      let line = RecipeStatusText.line(step: step, record: record, terminal: terminal, colors: colors)
      context.stderr.write(mask.mask(line) + "\n")
      context.stderr.flush()
    }
    if events {
      var members = [
        JSONMember("type", .string("step")), JSONMember("step", .string(step.id)),
        JSONMember("call", .string(step.call)),
        JSONMember("state", .string(record.state.rawValue)), JSONMember("result", record.result),
      ]
      if let error = record.error { members.append(JSONMember("error", .string(error.message))) }
      if record.notes.retries > 0 { members.append(JSONMember("retries", .int(record.notes.retries))) }
      if record.notes.reconnects > 0 { members.append(JSONMember("reconnects", .int(record.notes.reconnects))) }
      if !record.notes.fallbacks.isEmpty {
        members.append(JSONMember("fell_back_to", .array(record.notes.fallbacks.map(JSONValue.string))))
      }
      emit(.object(members))
    }
  }

  /// Writes one NDJSON line on stdout, masked.
  func emit(_ value: JSONValue) {
    let line = mask.mask(value.compactJSON) + "\n"
    lock.withLock {
      context.stdout.write(line)
      context.stdout.flush()
    }
  }

  /// Clears a progress bar left on screen.
  func finish() {
    lock.withLock {
      if progressShown { context.stderr.write("\r\u{1B}[2K") }
      context.stderr.flush()
    }
  }
}

extension RecipeFile {
  /// True when `path` holds a JSON object with a top-level "steps" key (a recipe, not a registry file).
  static func isRecipe(path: String) -> Bool {
    guard let bytes = try? FileBytes.read(path), let value = try? JSONParser.parse(bytes) else { return false }
    return RecipeLoader.isRecipe(value)
  }

  /// Validates a recipe completely; returns a one-line summary for `apx validate`.
  static func summary(path: String, registryDirectories: [String]) throws -> String {
    let file = try load(path: path, registryDirectories: registryDirectories)
    let n = file.recipe.steps.count
    return "recipe \(file.recipe.name): \(n) step\(n == 1 ? "" : "s")"
  }
}
