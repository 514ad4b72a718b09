import Foundation
import Subprocess

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// What one child process produced.
struct ChildResult: Sendable {
  /// The exit status, or the signal number when `signaled`.
  var status: Int32
  /// Whether a signal ended the process.
  var signaled: Bool
  var stdout: [UInt8]
  var stderr: [UInt8]
}

extension ChildResult {
  init(_ termination: TerminationStatus, stdout: [UInt8], stderr: [UInt8]) {
    switch termination {
    case .exited(let code): self.init(status: code, signaled: false, stdout: stdout, stderr: stderr)
    case .signaled(let signal): self.init(status: signal, signaled: true, stdout: stdout, stderr: stderr)
    }
  }
}

/// A child that is still running, for tests that signal it (Ctrl-C) while it works.
struct RunningChild: Sendable {
  let pid: pid_t

  /// Sends `signal` (e.g. `SIGINT`) to the child.
  func send(_ signal: Int32) { kill(pid, signal) }
}

/// A child that did not end within its time limit; it was stopped (SIGTERM, then SIGKILL).
struct ChildTimeout: Error, CustomStringConvertible {
  var command: String
  var seconds: Double
  var description: String { "\(command) did not finish within \(seconds) s and was stopped" }
}

/// Runs child processes for the tests, with swift-subprocess rather than Foundation's `Process`.
///
/// Why: on Linux, `Process.run` emulates close-on-exec by listing /proc/self/fd, and copies
/// each entry's full 256-byte name buffer; with over a thousand descriptors open in the test
/// process, that read ran past the end of its buffer and crashed a CI run (SIGSEGV). Subprocess
/// opens its pipes close-on-exec and closes the rest in the child with `close_range`.
///
/// At most `ChildSlots.limit` children run at once: Swift Testing starts every test together,
/// and unbounded, a 2-core machine ran ~100 apx processes at once (load average 12-25, the
/// in-process servers starved, and >1,000 descriptors were open).
enum ChildProcess {
  /// The most either stream may hold.
  static let outputLimit = 256 << 20

  /// Runs `executable` with `arguments` and `environment` (the whole environment, not added
  /// to ours), feeds it `stdin` (then end of file; nothing when nil), and collects both
  /// streams (stdout goes to `stdoutTo` instead when given; it is closed once the child has
  /// it). `stdinFrom`, when given, is the child's stdin instead of `stdin` (closed here once the
  /// child has it: a server whose stdin ends when its test does). `whileRunning` runs once the
  /// child has started (to signal it); the result is
  /// returned when the child has ended. Throws `ChildTimeout` after `timeout` seconds.
  /// `bounded: false` is for a server that lives for a whole test (and runs apx against it):
  /// it takes no slot, so it never waits for a second one.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String],
    stdin: [UInt8]? = nil, stdinFrom: FileDescriptor? = nil, workingDirectory: String? = nil,
    stdoutTo: FileDescriptor? = nil, timeout: Double,
    bounded: Bool = true, whileRunning: (@Sendable (RunningChild) async throws -> Void)? = nil
  ) async throws -> ChildResult {
    try await ChildSlots.shared.withSlot(if: bounded) {
      try await withThrowingTaskGroup(of: ChildResult?.self) { group in
        group.addTask {
          try await spawn(
            executable, arguments, environment: environment, stdin: stdin, stdinFrom: stdinFrom,
            workingDirectory: workingDirectory, stdoutTo: stdoutTo, whileRunning: whileRunning)
        }
        group.addTask {
          try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
          return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
          throw ChildTimeout(command: ([executable] + arguments).joined(separator: " "), seconds: timeout)
        }
        return result
      }
    }
  }

  private static func spawn(
    _ executable: String, _ arguments: [String], environment: [String: String], stdin: [UInt8]?,
    stdinFrom: FileDescriptor?, workingDirectory: String?, stdoutTo: FileDescriptor?,
    whileRunning: (@Sendable (RunningChild) async throws -> Void)?
  ) async throws -> ChildResult {
    var options = PlatformOptions()
    // Cancelled (the time is up): SIGTERM, 2 s, then SIGKILL.
    options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(2))]
    var env: [Environment.Key: String] = [:]
    for (key, value) in environment { env[Environment.Key(stringLiteral: key)] = value }
    let configuration = Configuration(
      executable: .path(FilePath(executable)), arguments: Arguments(arguments), environment: .custom(env),
      workingDirectory: workingDirectory.map { FilePath($0) }, platformOptions: options)
    let body: @Sendable (RunningChild) async throws -> Void = { try await whileRunning?($0) }
    let input =
      try stdinFrom.map { FileDescriptorInput.fileDescriptor($0, closeAfterSpawningProcess: true) }
      ?? StdinFeeder.start(stdin ?? [])
    if let stdoutTo {
      let result = try await Subprocess.run(
        configuration, input: input,
        output: .fileDescriptor(stdoutTo, closeAfterSpawningProcess: true), error: .bytes(limit: outputLimit)
      ) { try await body(RunningChild(pid: $0.processIdentifier.value)) }
      return ChildResult(result.terminationStatus, stdout: [], stderr: result.standardError)
    }
    let result = try await Subprocess.run(
      configuration, input: input, output: .bytes(limit: outputLimit),
      error: .bytes(limit: outputLimit)
    ) { try await body(RunningChild(pid: $0.processIdentifier.value)) }
    return ChildResult(result.terminationStatus, stdout: result.standardOutput, stderr: result.standardError)
  }
}

/// Feeds a child's stdin from a thread of our own, through a pipe we own.
///
/// Why not Subprocess's `.array` input: in swift-subprocess 1.0.2, when the child exits before
/// reading its stdin (apx refusing a usage error), the failed write leaves its writer's
/// descriptor open and the writer's deinit traps ("FileDescriptor ... was not closed"),
/// which crashed the test process.
enum StdinFeeder {
  /// The read end for the child (closed here once the child has it); `bytes` then end of file
  /// are written to the other end. A child that stops reading only ends the writing (EPIPE:
  /// SIGPIPE is ignored in the test process).
  static func start(_ bytes: [UInt8]) throws -> FileDescriptorInput {
    _ = ignoreSIGPIPE
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    Thread {
      _ = try? writeEnd.writeAll(bytes)
      try? writeEnd.close()
    }.start()
    return .fileDescriptor(readEnd, closeAfterSpawningProcess: true)
  }

  private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()
}

/// A counting semaphore for child processes. A holder never waits for a second slot (no
/// test runs two slotted processes that wait on each other; a long-lived server takes none),
/// so it cannot deadlock.
actor ChildSlots {
  static let shared = ChildSlots(limit: max(4, ProcessInfo.processInfo.activeProcessorCount * 3))

  let limit: Int
  private var inUse = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) { self.limit = limit }

  /// Runs `body` holding one slot (or none unless `needed`).
  nonisolated func withSlot<T: Sendable>(if needed: Bool = true, _ body: () async throws -> T) async throws -> T {
    guard needed else { return try await body() }
    await acquire()
    defer { Task { await self.release() } }
    return try await body()
  }

  private func acquire() async {
    if inUse < limit {
      inUse += 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  /// Hands the slot to the next waiter (it stays in use), or frees it.
  private func release() {
    if waiting.isEmpty {
      inUse -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
