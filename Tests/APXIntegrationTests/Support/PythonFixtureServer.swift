import APXTestSupport
import Foundation
import Synchronization

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// A server apx did not write, run by Python from `Tests/Fixtures/`: one per test on 127.0.0.1
/// port 0. The script prints its port on stdout and serves until its stdin closes (or its own
/// `--lifetime` passes).
struct PythonFixtureServer: Sendable {
  /// The script, relative to the package root.
  var script: String
  /// Python that must import for the server to run (`import websockets.asyncio.server`).
  var importCheck: String
  /// The URL scheme of the address handed to the test (`ws`, `http`).
  var scheme: String

  /// Whether `python3` runs `importCheck`.
  func available() async -> Bool {
    let check = try? await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", importCheck], environment: ProcessInfo.processInfo.environment, timeout: 60)
    return check?.status == 0 && check?.signaled == false
  }

  struct DidNotStart: Error, CustomStringConvertible {
    var script: String
    var stderr: String
    var description: String { "\(script) did not start: \(stderr)" }
  }

  /// Starts the server and runs `body` with its `SCHEME://HOST:PORT`; the server stops
  /// when `body` ends (SIGTERM), when its stdin closes, or after its own `--lifetime`.
  ///
  /// - Parameters:
  ///   - arguments: more arguments for the script (`--host` is given from `host`).
  ///   - host: the address the script is told to listen on, and the address handed to `body`.
  func run(
    arguments: [String] = [], host: String = "127.0.0.1", scheme: String? = nil,
    _ body: @escaping @Sendable (String) async throws -> Void
  ) async throws {
    let (portRead, portWrite) = try FileDescriptor.pipe()
    defer { try? portRead.close() }
    let (stdinRead, stdinWrite) = try FileDescriptor.pipe()
    defer { try? stdinWrite.close() }
    let started = Mutex(false)
    let path = APXProcess.packageRoot.appendingPathComponent(script).path
    let scheme = scheme ?? self.scheme
    let hostArguments = host == "127.0.0.1" ? [] : ["--host", host]
    let server = try await ChildProcess.run(
      "/usr/bin/env", ["python3", path, "--lifetime", ServerLifetime.argument] + hostArguments + arguments,
      environment: ProcessInfo.processInfo.environment, stdinFrom: stdinRead, stdoutTo: portWrite,
      timeout: ServerLifetime.seconds,
      bounded: false
    ) { child in
      defer { child.send(SIGTERM) }
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: portRead.rawValue, closeOnDealloc: false))
      guard let port = Int(line) else { return }
      started.withLock { $0 = true }
      try await body("\(scheme)://\(host):\(port)")
    }
    guard started.withLock({ $0 }) else {
      throw DidNotStart(script: script, stderr: String(decoding: server.stderr, as: UTF8.self))
    }
  }
}
