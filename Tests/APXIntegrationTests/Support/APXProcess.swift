import Foundation

/// What one run of the real `apx` binary produced.
struct APXResult: Sendable {
  var stdout: String
  var stderr: String
  var status: Int32
  var stdoutBytes: Data

  /// Both streams, for assertions that nothing leaked anywhere.
  var combined: String { stdout + "\n" + stderr }
}

/// Runs the built `apx` executable (as a user would) with arguments, extra
/// environment and stdin, and captures stdout, stderr and the exit status.
/// Each run is bounded: a hung process is killed after `timeout` seconds.
enum APXProcess {
  /// The package root, from this file's location.
  static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `.build/debug/apx`, or `$APX_BINARY`.
  static var binary: URL {
    if let path = ProcessInfo.processInfo.environment["APX_BINARY"] { return URL(fileURLWithPath: path) }
    return packageRoot.appendingPathComponent(".build/debug/apx")
  }

  /// The demo registry shipped with the repository.
  static var endpoints: String { packageRoot.appendingPathComponent("Endpoints").path }

  static func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, timeout: Double = 60,
    currentDirectory: URL? = nil, executable: URL? = nil
  ) async throws -> APXResult {
    let process = Process()
    process.executableURL = executable ?? binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // A private state dir per run unless the test chooses one: no test sees another's tokens.
    env["APX_STATE_DIR"] =
      FileManager.default.temporaryDirectory.appendingPathComponent("apx-state-\(UUID().uuidString)").path
    env["APX_REGISTRY"] = endpoints
    env.removeValue(forKey: "NO_COLOR")
    for (k, v) in environment { env[k] = v }
    process.environment = env
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    // Read both pipes concurrently so a chatty process cannot block on a full pipe.
    async let outData = Self.readAll(out.fileHandleForReading)
    async let errData = Self.readAll(err.fileHandleForReading)
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try? input.fileHandleForWriting.close()
    try await waitBounded(process, timeout: timeout)
    let o = await outData
    let e = await errData
    return APXResult(
      stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
      status: process.terminationStatus, stdoutBytes: o)
  }

  /// Waits for `process` to end, terminating it after `timeout` seconds.
  static func waitBounded(_ process: Process, timeout: Double) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline {
        process.terminate()
        break
      }
      try await Task.sleep(nanoseconds: 5_000_000)
    }
    process.waitUntilExit()
  }

  /// Reads on a thread of its own: a blocking read on `DispatchQueue.global()` would hold one
  /// of the threads Swift concurrency runs on (on Linux they are the same pool) and starve the
  /// in-process demo servers, which made each test take ~15 s in a full run instead of ~1 s.
  static func readAll(_ handle: FileHandle) async -> Data {
    await withCheckedContinuation { continuation in
      let reader = Thread { continuation.resume(returning: handle.readDataToEndOfFile()) }
      reader.start()
    }
  }
}
