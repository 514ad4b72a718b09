import APXTestSupport
import Foundation

/// What one run of the real `apx` binary produced.
struct APXResult: Sendable {
  var stdout: String
  var stderr: String
  var status: Int32
  var stdoutBytes: Data

  /// A finished child's streams and status (a signal's number when a signal ended it).
  init(_ child: ChildResult) {
    stdoutBytes = Data(child.stdout)
    stdout = String(decoding: child.stdout, as: UTF8.self)
    stderr = String(decoding: child.stderr, as: UTF8.self)
    status = child.status
  }

  init(stdout: String, stderr: String, status: Int32, stdoutBytes: Data) {
    self.stdout = stdout
    self.stderr = stderr
    self.status = status
    self.stdoutBytes = stdoutBytes
  }

  /// Both streams, for assertions that nothing leaked anywhere.
  var combined: String { stdout + "\n" + stderr }
}

/// Runs the built `apx` executable (as a user would) with arguments, extra
/// environment and stdin, and captures stdout, stderr and the exit status.
/// Each run is bounded: a hung process is stopped after `timeout` seconds and the run throws
/// `ChildTimeout`. Runs go through `ChildProcess` (at most a few at once).
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
    let child = try await ChildProcess.run(
      (executable ?? binary).path, arguments, environment: Self.environment(adding: environment),
      stdin: stdin.map { [UInt8]($0) }, workingDirectory: currentDirectory?.path, timeout: timeout)
    return APXResult(child)
  }

  /// Our environment for an apx run: a private state dir per run unless the test chooses one
  /// (no test sees another's tokens), the demo registry, colour allowed, then `adding`.
  static func environment(adding extra: [String: String] = [:]) -> [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["APX_STATE_DIR"] =
      TestScratch.root.appendingPathComponent("apx-state-\(UUID().uuidString)").path
    env["APX_REGISTRY"] = endpoints
    // Tokens stay in the run's state folder, never in the keychain of the machine running the
    // tests; the keychain tests choose theirs.
    env["APX_TOKEN_STORE"] = "file"
    env.removeValue(forKey: "NO_COLOR")
    // A proxy of the machine running the tests would stand between apx and the loopback servers.
    for name in ["http_proxy", "https_proxy", "all_proxy", "no_proxy"] {
      env.removeValue(forKey: name)
      env.removeValue(forKey: name.uppercased())
    }
    for (k, v) in extra { env[k] = v }
    return env
  }
}
