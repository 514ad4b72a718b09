import APXCore
import APXTestSupport
import Foundation
import Testing

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// `apx mock` as a child process for one test: started with `--port 0`, its addresses read
/// from its first stdout line, stopped with a signal (SIGTERM unless told) when the test's body ends.
enum MockProcess {
  /// What the test body sees: each API's base URL and port.
  struct Running: Sendable {
    var urls: [String: String]
    var pid: Int32

    /// The port of `api` (of the only API when nil).
    func port(_ api: String? = nil) throws -> Int {
      let url = try #require(api.map { urls[$0] } ?? urls.values.first, "no address in \(urls)")
      return try #require(Int(url.split(separator: ":").last ?? ""))
    }
  }

  /// Runs `apx mock ARGUMENTS --port PORT` (0: free ports), hands `body` its addresses, then stops it with `signal`. Returns the
  /// child's result (its stderr holds the fault lines); a mock that fails to start is an error
  /// with its stderr.
  @discardableResult
  static func with(
    _ arguments: [String], environment: [String: String] = [:], signal: Int32 = SIGTERM, port: Int = 0,
    _ body: @escaping @Sendable (Running) async throws -> Void
  ) async throws -> ChildResult {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    let failure = FailureBox()
    let result = try await ChildProcess.run(
      APXProcess.binary.path, ["mock"] + arguments + ["--port", String(port)],
      environment: APXProcess.environment(adding: environment), stdoutTo: writeEnd, timeout: ServerLifetime.seconds,
      bounded: false
    ) { child in
      defer { child.send(signal) }
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: readEnd.rawValue, closeOnDealloc: false))
      guard case .object(let members)? = try? JSONParser.parse(line) else {
        failure.set("apx mock did not start (no address line: \(line))")
        return
      }
      var urls: [String: String] = [:]
      for m in members { urls[m.key] = m.value.stringValue }
      do {
        try await body(Running(urls: urls, pid: 0))
      } catch {
        failure.set("\(error)")
      }
    }
    if let message = failure.message {
      throw SSEWatchTests.TestFailure("\(message)\nstderr: \(String(decoding: result.stderr, as: UTF8.self))")
    }
    return result
  }
}

/// The first failure of a mock test's body, carried out of the child's callback.
private final class FailureBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: String?

  var message: String? { lock.withLock { stored } }
  func set(_ text: String) { lock.withLock { if stored == nil { stored = text } } }
}
