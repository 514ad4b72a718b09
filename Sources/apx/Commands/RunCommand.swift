import APXCore
import APXRuntime
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `apx run RECIPE.json [name=value ...]`: parses the command line and hands
/// the recipe to the runtime's pipeline (parse: `RecipeFile`, `RecipeRunSetup`;
/// run: `RecipeRunner`; report: `RecipeRunReporter`, `JUnitReport`), then maps
/// the outcome to the exit status.
struct RunCommand: ContextCommand {
  static let runsOnCommandEventLoop = true
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
      "Inputs: name=value, name:=json, name=@file; with --resume, optionally a RUN_ID.", valueName: "INPUT"),
    completion: .custom(RecipeInputCompletion.complete))
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

  @OptionGroup var cookieSession: CookieSessionOption

  @OptionGroup var harOption: HAROption

  @Flag(
    name: .customLong("mock"),
    help: "Run against `apx mock` of the recipe's APIs, started in-process on free loopback ports.")
  var mock = false

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
    if mock, global.demo || global.baseURL != nil {
      throw ValidationError("--mock chooses where the calls go: leave out --demo and --base-url")
    }
    if dryRun && cookieSession.name != nil {
      throw ValidationError("--session keeps the cookies of requests that are sent; --dry-run sends none")
    }
    if dryRun && harOption.path != nil {
      throw ValidationError("--har records the exchanges of requests that are sent; --dry-run sends none")
    }
  }

  func run(in context: Context) async throws {
    if resume, global.demo {
      // Each --demo starts a fresh backend: it knows no job of the run being resumed.
      throw APXError(
        .usage, "--resume cannot be used with --demo",
        hint:
          "run `apx demo` in another terminal and point the run at it with --base-url http://127.0.0.1:8080, both for the first run and for --resume",
        cause: "--demo starts a new demo backend for each run, which knows nothing of the run being resumed")
    }
    let environment = context.environment
    let configured = try global.applyingConfig(context)
    // Parse: load and validate the recipe, read the inputs, find the run to resume.
    let file = try RecipeFile.load(path: recipePath, registryDirectories: context.registryDirectories(global.registry))
    var resumeID: String?
    var inputArguments: [String] = []
    for p in params {
      if resume, !p.contains("="), resumeID == nil { resumeID = p } else { inputArguments.append(p) }
    }
    let setup = try RecipeRunSetup.prepare(
      file: file, given: try RecipeInputArguments.read(inputArguments, recipe: file.recipe), resume: resume,
      resumeID: resumeID, environment: environment)
    let mask = setup.mask

    if global.insecure { context.warn("apx: warning: --insecure: TLS certificates are not verified") }
    let stderr = context.stderr
    let stdout = context.stdout
    let status: RecipeRunReporter.Write = { text in
      stderr.write(text)
      stderr.flush()
    }
    var eventLines: RecipeRunReporter.Write?
    if events {
      eventLines = { line in
        stdout.write(line)
        stdout.flush()
      }
    }
    let reporter = RecipeRunReporter(
      status: status, events: eventLines, terminal: context.stderrIsTerminal,
      colors: context.useColor(.auto, terminal: context.stderrIsTerminal),
      mask: mask, stepIDs: file.recipe.steps.map(\.id))
    var transportLog: (@Sendable (CallEvent) -> Void)?
    if global.verbose {
      transportLog = { event in
        // Masked again with the recipe's secrets (secret inputs), on top of the call's own mask.
        guard let text = VerboseLines.text(for: event) else { return }
        stderr.write(reporter.mask.mask(text))
        stderr.flush()
      }
    }
    // Token requests are shown as the steps' own exchanges are.
    let tokenLog = transportLog
    let options = RecipeRunOptions(
      testMode: test, timeout: configured.timeout, maxAttemptsOverride: configured.noRetry ? 1 : configured.retry,
      headers: global.headerFields, transportLog: transportLog)

    // Run: one HTTP session, one token manager and one gRPC session for the whole run.
    let result: RecipeRunResult? = try await MockBackend.withOptionalBackend(
      demo: global.demo, mock: mock, apis: file.registry.apis.values.sorted { $0.name < $1.name },
      steps: file.recipe.steps, context: context
    ) { demo, mocked in
      var targets: [String: RecipeTarget] = [:]
      for (name, registered) in file.registry.apis {
        let api = mocked.http[name].map { MockBackend.pointingTokenURLs(registered, at: $0) } ?? registered
        let resolved = try BaseURLResolver.resolve(
          api: api, environment: global.environment, override: mocked.http[api.name] ?? global.baseURL, demo: demo,
          processEnvironment: environment, configured: context.configuredEnvironment(for: api.name))
        targets[name] = RecipeTarget(api: api, baseURL: resolved.baseURL, environmentName: resolved.environmentName)
        targets[name]?.grpcBaseURL = mocked.grpc[name]
      }
      if dryRun {
        let lines = try RecipeDryRun(
          recipe: file.recipe, targets: targets, environment: environment, recipeDirectory: file.directory
        )
        .requests(inputs: setup.inputs, runID: setup.runID, mask: mask)
        for line in lines { stdout.write(JSONPrinter(style: .compact).string(line) + "\n") }
        return nil
      }
      let journal = try setup.openJournal()
      if setup.resume != nil { context.warn("apx: resuming run \(setup.runID)") }
      return try await harOption.recording { har in
        let tls = try RegistryTLS.one(
          of: targets.values.sorted { $0.api.name < $1.api.name }.map { ($0.api, $0.environmentName, $0.baseURL) })
        // One token manager per run: every step shares one token and one refresh.
        // A server may echo a token in a body: it is masked like the run's other secrets.
        return try await context.withCallStack(
          configured, tls: tls, cookieSession: cookieSession.name, har: har,
          onToken: { token in
            for secret in token.secrets {
              journal.addSecret(secret)
              reporter.addSecret(secret)
            }
          },
          observe: har.map { har in
            let record = har.tokenRequests()
            return { event in
              record(event)
              tokenLog?(event)
            }
          } ?? tokenLog,
          apis: targets.values.map(\.api)
        ) { stack in
          let runner = RecipeRunner(
            recipe: file.recipe, targets: targets, executor: stack.executor, options: options, journal: journal,
            observer: reporter, runID: setup.runID, resume: setup.resume, recipeDirectory: file.directory)
          return await RecipeInterruption.run { await runner.run(inputs: setup.inputs) }
        }
      }
    }
    guard let result else { return }
    // Report: the output, the test summary and the JUnit file; the outcome becomes the exit status here.
    reporter.finish()
    try finish(result, runID: setup.runID, reporter: reporter, context: context)
  }

  /// Prints the output, the test summary and the report; maps the outcome to the exit status.
  private func finish(_ result: RecipeRunResult, runID: String, reporter: RecipeRunReporter, context: Context) throws {
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
          underlying: error)
      }
    }
    if test { context.warn("\(counts.passed) passed, \(counts.failed) failed") }
    if result.interrupted, result.resumable {
      throw APXError(
        .interrupted, "the run \(runID) was interrupted",
        hint: "resume it with: apx run \(recipePath) --resume \(runID)")
    }
    if let failed = result.failure {
      var failure = RecipeSecrets.masked(failed, with: reporter.mask)
      // Whatever failed, the journal lets the run resume without repeating finished steps (unless it was lost).
      if result.resumable {
        failure.hint =
          (failure.hint.map { $0 + "\n  " } ?? "")
          + "fix the cause, then resume with: apx run \(recipePath) --resume \(runID)"
      }
      if test, counts.failed > 0, failure.status == .expectation {
        throw ExitCode(ExitStatus.expectation.code)
      }
      throw failure
    }
    if test, counts.failed > 0 { throw ExitCode(ExitStatus.expectation.code) }
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
