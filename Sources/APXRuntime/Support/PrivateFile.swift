#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files only their owner may read (tokens, cookie sessions): folders mode 0700, files mode
/// 0600, written to a temp file that is renamed over the old one, so a crash or a concurrent
/// reader never sees half a file. Failures come back as the errno, for the caller's message.
enum PrivateFile {
  /// The failed step and its errno.
  struct Failure: Error {
    var step: String
    var path: String
    var code: Int32
  }

  /// Creates `directory` and its parents (mode 0700 for those it creates).
  static func makeDirectory(_ directory: String) throws(Failure) {
    // mkdir itself, not FileManager: its errno is what the message and the caller need.
    var path = directory.hasPrefix("/") ? "" : "."
    for component in directory.split(separator: "/") {
      path += "/" + component
      if mkdir(path, 0o700) != 0, errno != EEXIST {
        throw Failure(step: "cannot create the folder", path: directory, code: errno)
      }
    }
  }

  /// Replaces `target` with `bytes`, mode 0600, synced before the rename.
  static func write(_ bytes: [UInt8], to target: String) throws(Failure) {
    let temp = target + ".tmp-" + UUID().uuidString
    let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw Failure(step: "cannot create", path: temp, code: errno) }
    var code: Int32 = 0
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          code = errno
          return
        }
        offset += n
      }
    }
    // umask can only remove bits, but make the mode explicit anyway.
    if code == 0, fchmod(fd, 0o600) != 0 || fsync(fd) != 0 { code = errno }
    close(fd)
    if code == 0, rename(temp, target) != 0 { code = errno }
    guard code == 0 else {
      unlink(temp)
      throw Failure(step: "cannot write", path: target, code: code)
    }
  }
}

/// `write(2)`, outside the type whose `write(_:to:)` method would shadow it.
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, bytes, count)
}
