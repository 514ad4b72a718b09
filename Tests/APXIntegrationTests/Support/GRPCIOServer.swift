import APXTestSupport
import Foundation
import Synchronization

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// Python's grpcio serving `classnotes.v1.ClassNotesAPI` with grpcio-reflection
/// (`Tests/Fixtures/grpcio/grpcio_server.py`): a gRPC server apx did not write, one per test.
enum GRPCIOServer {
  /// Which reflection service the server offers (the script's `--reflection`).
  enum Reflection: String, Sendable, CustomStringConvertible {
    /// As grpcio-reflection registers itself: v1alpha only, so apx falls back from v1.
    case v1alpha
    /// The same servicer under `grpc.reflection.v1` only.
    case v1
    /// No reflection: the schema must come from `--protoset`.
    case none

    var description: String { rawValue }
  }

  /// Why the tests are skipped (a `Comment` in the tests) when Python cannot run the server.
  static let missing =
    "python3 with grpcio and grpcio-reflection is not installed (pip install grpcio-reflection, as .ci/run does)"

  static let script = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/grpcio/grpcio_server.py").path
  static let protoset = APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path

  /// Whether `python3` imports what the script needs (asked once per test process).
  static func found() async -> Bool { await availability.value }

  private static let availability = Task {
    let check = try? await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", "import grpc, grpc_reflection.v1alpha.reflection, google.protobuf"],
      environment: ProcessInfo.processInfo.environment, timeout: 60)
    return check?.status == 0 && check?.signaled == false
  }

  /// The server did not print its port; what it wrote on stderr says why.
  struct DidNotStart: Error, CustomStringConvertible {
    var stderr: String
    var description: String { "grpcio_server.py did not start: \(stderr)" }
  }

  /// Starts the server on 127.0.0.1 port 0 and runs `body` with its `grpc://127.0.0.1:PORT`.
  /// The server is stopped on every path: SIGTERM once `body` ends or throws, SIGTERM then
  /// SIGKILL when `ChildProcess`'s time limit cancels the run, its stdin closing when this
  /// process dies, and its own `--lifetime` (`ServerLifetime`) as a last resort.
  ///
  /// - Parameter largeSchema: also serve `bigschema.v1.BigSchemaAPI`, whose file descriptor is
  ///   over 200 KB (the script's `--large-schema`).
  static func run(
    reflection: Reflection = .v1alpha, largeSchema: Bool = false,
    _ body: @escaping @Sendable (String) async throws -> Void
  ) async throws {
    let (portRead, portWrite) = try FileDescriptor.pipe()
    defer { try? portRead.close() }
    // The write end stays open here until the server has ended: its EOF means "stop".
    let (stdinRead, stdinWrite) = try FileDescriptor.pipe()
    defer { try? stdinWrite.close() }
    let started = Mutex(false)
    let server = try await ChildProcess.run(
      "/usr/bin/env",
      ["python3", script, protoset, "--reflection", reflection.rawValue, "--lifetime", ServerLifetime.argument]
        + (largeSchema ? ["--large-schema"] : []),
      environment: ProcessInfo.processInfo.environment, stdinFrom: stdinRead, stdoutTo: portWrite,
      timeout: ServerLifetime.seconds,
      bounded: false
    ) { child in
      defer { child.send(SIGTERM) }
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: portRead.rawValue, closeOnDealloc: false))
      // No port: the server exited; its stderr is reported below.
      guard let port = Int(line) else { return }
      started.withLock { $0 = true }
      try await body("grpc://127.0.0.1:\(port)")
    }
    guard started.withLock({ $0 }) else { throw DidNotStart(stderr: String(decoding: server.stderr, as: UTF8.self)) }
  }
}
