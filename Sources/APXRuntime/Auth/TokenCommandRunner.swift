import APXCore
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs an API's `token_command` (directly, no shell) and reads the token it
/// prints. A failing command becomes an auth error carrying its stderr, masked.
struct TokenCommandRunner: Sendable {
  /// The process environment (for PATH and for the command itself).
  let environment: [String: String]
  /// Seconds the command may run before it is stopped.
  var timeout: Double = 60
  /// Whether `timeout` is the user's `--timeout` (the hint then says to raise it).
  var limitIsTimeoutFlag = false
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
    // The output and the exit, or nothing once the time is up. Not a task group: a group waits
    // for all its tasks, and the reads end only when every holder of the pipes (a child that
    // ignores SIGTERM, a grandchild) has closed them.
    let race = FirstResult<(Data, Data)?>()
    let (outHandle, errHandle) = (out.fileHandleForReading, err.fileHandleForReading)
    let readers = Task.detached {
      async let outData = Self.readAll(outHandle)
      async let errData = Self.readAll(errHandle)
      let output = await (outData, errData)
      await exited.wait()
      race.offer(output)
    }
    let limit = min(max(timeout, 0), 1e9)
    let watchdog = Task.detached {
      try? await Task.sleep(for: .milliseconds(Int64(limit * 1000)))
      race.offer(nil)
    }
    let finished = await race.value
    watchdog.cancel()
    guard let finished else {
      await box.stop()
      _ = readers  // ends when the stopped process's pipes close
      throw APXError(
        .timeout,
        "the token command of the API \"\(api.name)\" did not finish within \(NetworkErrorMapper.format(timeout))s and was stopped",
        hint: (limitIsTimeoutFlag ? "raise --timeout, or run" : "run")
          + " it yourself to see why it hangs (\(shown)); it may be waiting for a login or for input")
    }
    let (stdout, stderr) = finished

    let output = String(decoding: stdout.prefix(Self.outputLimit), as: UTF8.self)
    // Whatever the command printed on stdout is probably a token: never show it.
    for line in output.split(whereSeparator: \.isNewline) { mask.add(line.trimmingCharacters(in: .whitespaces)) }
    let errorText = mask.mask(String(decoding: stderr.prefix(4096), as: UTF8.self))
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let how =
        process.terminationReason == .exit
        ? "failed with exit status \(process.terminationStatus)"
        : "was killed by signal \(process.terminationStatus)"
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

/// A Process that may be stopped from another task.
private final class ProcessBox: @unchecked Sendable {
  private let process: Process

  init(_ process: Process) { self.process = process }

  /// Stops the process because it ran too long: SIGTERM, then SIGKILL when it is still running
  /// after a grace period of 2 s (a command that ignores SIGTERM), its process group too when it
  /// leads one. Returns once it is gone (or after another second), so apx never exits leaving it.
  func stop() async {
    let pid = process.processIdentifier
    guard pid > 0, process.isRunning else { return }
    let group = getpgid(pid) == pid
    kill(pid, SIGTERM)
    if group { kill(-pid, SIGTERM) }
    if await gone(within: 40) { return }
    kill(pid, SIGKILL)
    if group { kill(-pid, SIGKILL) }
    _ = await gone(within: 20)
  }

  /// Whether the process ended within `checks` looks 50 ms apart (polled: the exit signal has one waiter, the reader).
  private func gone(within checks: Int) async -> Bool {
    for _ in 0..<checks {
      if !process.isRunning { return true }
      try? await Task.sleep(for: .milliseconds(50))
    }
    return !process.isRunning
  }
}

/// The first value offered by any of several tasks; later offers are ignored.
private final class FirstResult<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Value?
  private var done = false
  private var waiter: CheckedContinuation<Value, Never>?

  func offer(_ value: Value) {
    lock.lock()
    guard !done else {
      lock.unlock()
      return
    }
    done = true
    result = value
    let w = waiter
    waiter = nil
    lock.unlock()
    w?.resume(returning: value)
  }

  var value: Value {
    get async {
      await withCheckedContinuation { continuation in
        lock.lock()
        if done, let result {
          lock.unlock()
          continuation.resume(returning: result)
        } else {
          waiter = continuation
          lock.unlock()
        }
      }
    }
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
