#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input read to its end (`-d @-`, `--token-stdin`), with `read(2)`: Foundation's
/// `FileHandle` is not in FoundationEssentials, and apx does not link full Foundation (issue 14).
public enum StandardInput {
  /// Every byte until end of file; a read error ends the input where it happened.
  public static func readAll() -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes.append(contentsOf: chunk[..<n])
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return bytes
      }
    }
  }
}
