public import APXCore

#if canImport(Glibc)
  import Glibc
  // `struct stat`'s fields live in the CoreFoundation clang module under MemberImportVisibility
  // (see FileChunks); importing it links nothing.
  import CoreFoundation
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file reads for what apx holds in memory: registry, recipe and journal files,
/// `name=@file` and `name:=@file` values, gRPC messages from `-d @file`.
///
/// Read with `open`/`read` rather than `FileManager.contents(atPath:)`, which has no size
/// limit (a 2 GB file was read whole, then copied into a String: a trap on allocation) and
/// refuses what is not a regular file, so `name=@<(command)` (a pipe) failed with "check its
/// permissions", as did a symbolic link loop.
public enum FileBytes {
  /// 64 MiB, the most read from one file, as for bodies held by `--select`: a parsed JSON
  /// document takes about 3.5 bytes of memory per byte.
  public static let defaultLimit = 64 * 1_048_576

  /// The file's bytes, or a usage error saying why they cannot be read. A pipe or a device
  /// (`<(command)`, `/dev/stdin`) is read to its end, up to `limit` bytes; past it, the error is
  /// `tooLarge(limit)` when given (a kind of file with a limit of its own says so its own way).
  public static func read(
    _ path: String, limit: Int = defaultLimit, tooLarge: ((Int) -> APXError)? = nil
  ) throws(APXError) -> [UInt8] {
    let tooLarge = tooLarge ?? { Self.tooLarge(path, limit: $0) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw openFailure(path, errno: errno) }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0 {
      if (info.st_mode & S_IFMT) == S_IFDIR {
        throw APXError(.usage, "cannot read \(path)", hint: "it is a folder, not a file")
      }
      if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > limit { throw tooLarge(limit) }
    }
    var bytes: [UInt8] = []
    // Not zero-filled: a `[UInt8](repeating: 0, count: 65_536)` chunk for a registry file of a few
    // KB cost its memset and a page fault per page (3% of a registry gRPC call's CPU, `perf`).
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let n = readBytes(fd, chunk)
      if n > 0 {
        guard bytes.count + n <= limit else { throw tooLarge(limit) }
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
      } else if n == 0 {
        return bytes
      } else if errno != EINTR {
        throw APXError(
          .usage, "cannot read \(path)", hint: "check that it is a readable file",
          cause: String(cString: strerror(errno)))
      }
    }
  }

  private static func openFailure(_ path: String, errno code: Int32) -> APXError {
    switch code {
    case ENOENT: return APXError(.usage, "\(path) does not exist", hint: "check the path")
    case EACCES, EPERM: return APXError(.usage, "cannot read \(path): permission denied", hint: "check its permissions")
    case ELOOP:
      return APXError(
        .usage, "cannot read \(path): its symbolic links form a loop", hint: "point the link at a file")
    default:
      return APXError(.usage, "cannot read \(path)", hint: "check the path", cause: String(cString: strerror(code)))
    }
  }

  private static func tooLarge(_ path: String, limit: Int) -> APXError {
    APXError(
      .usage, "\(path) is larger than \(limit / 1_048_576) MiB, the most apx reads from one file into memory",
      hint: "a large upload streams: name@path or -d @path (REST), -d @- < FILE (a gRPC stream)")
  }
}

/// `read(2)`, named apart from `FileBytes.read`, which would shadow it there.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(fd, buffer.baseAddress, buffer.count)
}
