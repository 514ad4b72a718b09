import APXCore
import NIOCore

#if canImport(Glibc)
  import Glibc
  // With MemberImportVisibility, a whole-module build places `struct stat`'s fields in the
  // CoreFoundation clang module (its headers include <sys/stat.h> first). Importing the
  // module links nothing: no CoreFoundation symbol is used.
  import CoreFoundation
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file (or stdin) read in 64 KiB chunks as an async sequence of
/// ByteBuffers, so uploads stream from disk and never sit whole in memory.
/// Plain POSIX reads: local-disk reads are short, and this keeps the upload
/// path free of an extra thread pool.
struct FileChunks: AsyncSequence, Sendable {
  typealias Element = ByteBuffer
  let path: String?  // nil: standard input
  let chunkSize = 64 * 1024

  /// Opens the file up front so a missing file fails before the request is sent.
  static func checkReadable(_ path: String) throws(APXError) -> Int64 {
    var st = stat()
    guard stat(path, &st) == 0 else {
      throw APXError(
        .usage, "cannot read \(path): \(String(cString: strerror(errno)))", hint: "check the path after '@'")
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      throw APXError(.usage, "\(path) is not a regular file", hint: "pass a file path after '@'")
    }
    return Int64(st.st_size)
  }

  func makeAsyncIterator() -> Iterator { Iterator(path: path, chunkSize: chunkSize) }

  struct Iterator: AsyncIteratorProtocol {
    let path: String?
    let chunkSize: Int
    var fd: Int32 = -1
    var done = false

    init(path: String?, chunkSize: Int) {
      self.path = path
      self.chunkSize = chunkSize
    }

    mutating func next() async throws -> ByteBuffer? {
      if done { return nil }
      if fd < 0 {
        fd = path.map { open($0, O_RDONLY) } ?? 0
        guard fd >= 0 else {
          done = true
          throw APXError(.usage, "cannot read \(path ?? "stdin"): \(String(cString: strerror(errno)))")
        }
      }
      var buffer = ByteBufferAllocator().buffer(capacity: chunkSize)
      let n = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: chunkSize) { raw in
        var r: Int
        repeat { r = read(fd, raw.baseAddress, raw.count) } while r < 0 && errno == EINTR
        return Swift.max(r, 0)
      }
      if n == 0 {
        done = true
        if path != nil { close(fd) }
        return nil
      }
      return buffer
    }
  }
}
