import APXCore
import Foundation
import Testing

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// `apx demo` in the foreground stops on Ctrl-C (SIGINT) or SIGTERM at once, also while a
/// client holds a connection open mid-answer: no graceful wait for that client (the shell then
/// reports 130 for Ctrl-C, as README's exit codes say).
@Suite("apx demo, interrupted", .timeLimit(.minutes(5)))
struct DemoCommandInterruptTests {
  @Test(arguments: [SIGINT, SIGTERM])
  func theDemoStopsOnTheSignalWithAClientConnected(_ signal: Int32) async throws {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer { try? readEnd.close() }
    // A limit far above the ~50 ms it takes: past it the child is stopped and the test fails.
    let run = try await ChildProcess.run(
      APXProcess.binary.path, ["demo", "--port", "0", "--grpc-port", "0"], environment: APXProcess.environment(),
      stdoutTo: writeEnd, timeout: 10
    ) { demo in
      // The first line appears once both servers listen; EOF (an empty line) if the demo failed.
      let line = await GRPCTLSTests.firstLine(FileHandle(fileDescriptor: readEnd.rawValue, closeOnDealloc: false))
      let http = try #require(try JSONParser.parse(line)["http"]?.stringValue, "no ready line: \(line)")
      let port = try #require(Int(http.split(separator: ":").last ?? ""))
      // A download of 1 GB at 64 KiB every 100 ms, never read: the connection stays busy.
      let client = try OpenConnection(port: port, request: "GET /_demo/drip?size=1000000000&every_ms=100 HTTP/1.1")
      defer { client.close() }
      try await client.waitForAnswer()
      demo.send(signal)
    }
    #expect(
      run.signaled && run.status == signal, "status \(run.status): \(String(decoding: run.stderr, as: UTF8.self))")
  }
}

/// A blocking loopback TCP connection that sends one request and then only waits.
private struct OpenConnection {
  let fd: Int32

  init(port: Int, request: String) throws {
    fd = try connectLoopback(port: port)
    let text = Array((request + "\r\nHost: 127.0.0.1\r\n\r\n").utf8)
    guard write(fd, text, text.count) == text.count else { throw SSEWatchTests.TestFailure("cannot send") }
  }

  /// Reads until the answer has begun (its first bytes), on a thread of its own.
  func waitForAnswer() async throws {
    let fd = self.fd
    let got = await withCheckedContinuation { continuation in
      Thread {
        var buffer = [UInt8](repeating: 0, count: 512)
        continuation.resume(returning: read(fd, &buffer, buffer.count))
      }.start()
    }
    guard got > 0 else { throw SSEWatchTests.TestFailure("the demo did not answer") }
  }

  func close() { closeDescriptor(fd) }
}

/// The C library's `close`: outside `OpenConnection`, whose own `close()` would hide it.
private func closeDescriptor(_ fd: Int32) {
  _ = close(fd)
}
