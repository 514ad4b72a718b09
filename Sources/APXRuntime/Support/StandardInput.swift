public import APXCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input read to its end (`name=@-.path`, `--token-stdin`, a gRPC request from `-d @-`),
/// with `read(2)`: Foundation's `FileHandle` is not in FoundationEssentials, and apx does not
/// link full Foundation.
public enum StandardInput {
  /// Every byte until end of file, at most `limit` (64 MiB, as for files read whole): without
  /// it, `apx call URL id=@-.id < /dev/zero` grew by 270 MB a second until the machine gave out.
  /// A read error ends the input where it happened.
  public static func readAll(limit: Int = FileBytes.defaultLimit) throws(APXError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n > 0 {
        guard bytes.count + n <= limit else {
          throw APXError(
            .usage, "stdin holds more than \(limit / 1_048_576) MiB, the most apx reads from it into memory",
            hint: "a large upload streams from stdin with -d @- (REST) or as a gRPC client stream")
        }
        bytes.append(contentsOf: chunk[..<n])
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return bytes
      }
    }
  }

  /// Calls `body` with each line of stdin as it arrives (without its `\n`; the last line even
  /// without one), read with `read(2)`; a line longer than `limit` bytes is a usage error.
  public static func forEachLine(
    limit: Int, _ body: (ArraySlice<UInt8>) throws -> Void
  ) throws {
    var partial: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      var start = 0
      while let newline = chunk[start..<n].firstIndex(of: 0x0A) {
        if partial.isEmpty {
          try body(chunk[start..<newline])
        } else {
          partial += chunk[start..<newline]
          try body(partial[...])
          partial.removeAll(keepingCapacity: true)
        }
        start = newline + 1
      }
      partial += chunk[start..<n]
      guard partial.count <= limit else {
        throw APXError(
          .usage, "a line of stdin is longer than \(limit / 1_048_576) MiB",
          hint: "send one JSON document per line (NDJSON)")
      }
    }
    if !partial.isEmpty { try body(partial[...]) }
  }
}
