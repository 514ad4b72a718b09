import APXTestSupport
import Foundation
import Synchronization

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// Python's `websockets` (`Tests/Fixtures/websockets/websockets_server.py`): a WebSocket server
/// apx did not write, one per test on 127.0.0.1 port 0.
enum WebSocketPythonServer {
  /// Why the tests are skipped when Python cannot run the server.
  static let missing = "python3 with websockets is not installed (pip install websockets, as .ci/run does)"

  static let script = APXProcess.packageRoot.appendingPathComponent(
    "Tests/Fixtures/websockets/websockets_server.py"
  ).path

  /// Whether `python3` imports `websockets` (asked once per test process).
  static func found() async -> Bool { await availability.value }

  private static let availability = Task {
    let check = try? await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", "import websockets.asyncio.server"],
      environment: ProcessInfo.processInfo.environment, timeout: 60)
    return check?.status == 0 && check?.signaled == false
  }

  struct DidNotStart: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "websockets_server.py did not start: \(stderr)" }
  }

  /// Starts the server and runs `body` with its `ws://127.0.0.1:PORT`; the server stops when
  /// `body` ends (SIGTERM), when its stdin closes, or after its own `--lifetime`.
  static func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
    let (portRead, portWrite) = try FileDescriptor.pipe()
    defer { try? portRead.close() }
    let (stdinRead, stdinWrite) = try FileDescriptor.pipe()
    defer { try? stdinWrite.close() }
    let started = Mutex(false)
    let server = try await ChildProcess.run(
      "/usr/bin/env", ["python3", script, "--lifetime", "240"],
      environment: ProcessInfo.processInfo.environment, stdinFrom: stdinRead, stdoutTo: portWrite, timeout: 240,
      bounded: false
    ) { child in
      defer { child.send(SIGTERM) }
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: portRead.rawValue, closeOnDealloc: false))
      guard let port = Int(line) else { return }
      started.withLock { $0 = true }
      try await body("ws://127.0.0.1:\(port)")
    }
    guard started.withLock({ $0 }) else { throw DidNotStart(stderr: String(decoding: server.stderr, as: UTF8.self)) }
  }
}
