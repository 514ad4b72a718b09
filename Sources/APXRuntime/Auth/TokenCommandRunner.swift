import APXCore
import Foundation

/// Runs an API's `token_command` (directly, no shell) and reads the token it
/// prints. A failing command becomes an auth error carrying its stderr, masked.
struct TokenCommandRunner: Sendable {
  /// The process environment (for PATH and for the command itself).
  let environment: [String: String]
  /// Seconds the command may run before it is stopped.
  var timeout: Double = 60
  /// Largest stdout/stderr kept.
  static let outputLimit = 1 << 20

  /// Runs `command` (templates resolved) and returns what it printed.
  func run(_ command: [String], api: APIDefinition, now: Double) async throws -> TokenCommandOutput {
    var mask = SecretMask()
    var arguments: [String] = []
    for part in command {
      arguments.append(try TemplateResolver.resolveText(part, environment: environment, mask: &mask, secret: true))
    }
    guard let program = arguments.first, !program.isEmpty else {
      throw APXError(.invalidDefinition, "the token_command of the API \"\(api.name)\" is empty", file: api.sourceFile)
    }
    let shown = Self.display(command)
    guard let executable = Self.locate(program, path: environment["PATH"]) else {
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" was not found: \(program)",
        hint: "install it or put it on PATH, or fix \"command\" in \(api.sourceFile)")
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = Array(arguments.dropFirst())
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let exited = ExitSignal()
    process.terminationHandler = { _ in exited.fire() }
    do {
      try process.run()
    } catch {
      throw APXError(
        .auth, "cannot run the token command of the API \"\(api.name)\" (\(shown))",
        hint: "check that \(executable) is executable", cause: mask.mask("\(error)"))
    }
    let box = ProcessBox(process)
    let watchdog = Task {
      try await Task.sleep(for: .milliseconds(DurationConversion.milliseconds(timeout)))
      box.stop()
    }
    async let outData = Self.readAll(out.fileHandleForReading)
    async let errData = Self.readAll(err.fileHandleForReading)
    let (stdout, stderr) = await (outData, errData)
    await exited.wait()
    watchdog.cancel()

    let output = String(decoding: stdout.prefix(Self.outputLimit), as: UTF8.self)
    // Whatever the command printed on stdout is probably a token: never show it.
    for line in output.split(whereSeparator: \.isNewline) { mask.add(line.trimmingCharacters(in: .whitespaces)) }
    let errorText = mask.mask(String(decoding: stderr.prefix(4096), as: UTF8.self))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let how =
        process.terminationReason == .exit
        ? "failed with exit status \(process.terminationStatus)"
        : (box.timedOut
          ? "did not finish within \(NumberText.plain(timeout))s and was stopped"
          : "was killed by signal \(process.terminationStatus)")
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" \(how)",
        hint: "run it yourself to see why (\(shown)); you may need to log in to that tool first",
        cause: errorText.isEmpty ? nil : errorText)
    }
    guard let parsed = TokenCommandOutput.parse(output, now: now) else {
      throw APXError(
        .auth, "the token command of the API \"\(api.name)\" printed no token",
        hint: "it should print the token (or JSON with access_token) on stdout: \(shown)",
        cause: errorText.isEmpty ? nil : errorText)
    }
    return parsed
  }

  /// The command as written in the registry (templates unresolved, so no secret values).
  static func display(_ command: [String]) -> String {
    command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
  }

  /// `program` itself when it contains a slash, else the first executable of that name on `path`.
  static func locate(_ program: String, path: String?) -> String? {
    if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
    let dirs = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    for dir in dirs where !dir.isEmpty {
      let candidate = dir + "/" + program
      var isDir: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue,
        FileManager.default.isExecutableFile(atPath: candidate)
      {
        return candidate
      }
    }
    return nil
  }

  /// Reads a pipe to its end on a queue of its own (so both pipes drain at once). Not a global
  /// queue: on Linux those share their width-limited threads with Swift concurrency, which a
  /// blocking read would starve.
  static func readAll(_ handle: FileHandle) async -> Data {
    await withCheckedContinuation { continuation in
      DispatchQueue(label: "apx.token-command.read").async {
        continuation.resume(returning: handle.readDataToEndOfFile())
      }
    }
  }
}

/// A Process passed to the watchdog task, which may only stop it.
private final class ProcessBox: @unchecked Sendable {
  private let process: Process
  private let lock = NSLock()
  private var stopped = false

  init(_ process: Process) { self.process = process }

  /// Whether the watchdog stopped the process.
  var timedOut: Bool {
    lock.lock()
    defer { lock.unlock() }
    return stopped
  }

  /// Stops the process because it ran too long.
  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
    process.terminate()
  }
}

/// Fired once by the process's termination handler; awaited by the runner.
private final class ExitSignal: @unchecked Sendable {
  private let lock = NSLock()
  private var fired = false
  private var waiter: CheckedContinuation<Void, Never>?

  func fire() {
    lock.lock()
    fired = true
    let w = waiter
    waiter = nil
    lock.unlock()
    w?.resume()
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if fired {
        lock.unlock()
        continuation.resume()
      } else {
        waiter = continuation
        lock.unlock()
      }
    }
  }
}
