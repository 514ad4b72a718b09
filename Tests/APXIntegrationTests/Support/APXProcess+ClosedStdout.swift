import Foundation

extension APXProcess {
  /// Runs apx like `apx ... | head -c N`: reads `count` bytes of stdout, then closes
  /// the pipe and waits (at most `timeout` seconds) for apx to end.
  static func runClosingStdout(after count: Int, _ arguments: [String], timeout: Double = 60) async throws -> APXResult
  {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["APX_STATE_DIR"] =
      FileManager.default.temporaryDirectory.appendingPathComponent("apx-state-\(UUID().uuidString)").path
    env["APX_REGISTRY"] = endpoints
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    async let errData = readAll(err.fileHandleForReading)
    let head: Data = await withCheckedContinuation { continuation in
      Thread {
        var got = Data()
        while got.count < count {
          let piece = out.fileHandleForReading.readData(ofLength: count - got.count)
          if piece.isEmpty { break }
          got += piece
        }
        try? out.fileHandleForReading.close()
        continuation.resume(returning: got)
      }.start()
    }
    try await waitBounded(process, timeout: timeout)
    let e = await errData
    return APXResult(
      stdout: String(decoding: head, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self),
      status: process.terminationStatus, stdoutBytes: head)
  }
}
