import Foundation

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

extension APXProcess {
  /// Runs apx like `apx ... | head -c N`: reads `count` bytes of stdout, then closes
  /// the pipe and waits (at most `timeout` seconds) for apx to end.
  static func runClosingStdout(after count: Int, _ arguments: [String], timeout: Double = 60) async throws -> APXResult
  {
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    // Not awaited when the run throws: had apx not started, the read would never end.
    let head = Task { await readHead(of: readEnd, count: count) }
    let child = try await ChildProcess.run(
      binary.path, arguments, environment: environment(), stdoutTo: writeEnd, timeout: timeout)
    let bytes = await head.value
    return APXResult(ChildResult(status: child.status, signaled: child.signaled, stdout: bytes, stderr: child.stderr))
  }

  /// Reads up to `count` bytes, then closes `fd` (as `head -c` does), on a thread of its own:
  /// a blocking read must not hold one of the few threads Swift concurrency runs on.
  private static func readHead(of fd: FileDescriptor, count: Int) async -> [UInt8] {
    await withCheckedContinuation { continuation in
      Thread {
        var got: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while got.count < count {
          let want = min(buffer.count, count - got.count)
          let n =
            (try? buffer.withUnsafeMutableBytes {
              try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want]))
            }) ?? 0
          if n <= 0 { break }
          got += buffer[..<n]
        }
        try? fd.close()
        continuation.resume(returning: got)
      }.start()
    }
  }
}
