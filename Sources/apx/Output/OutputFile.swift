import APXCore
import APXRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `-O FILE`: the call's output goes to a temporary file beside FILE, which replaces FILE
/// (a rename, atomic on one file system) only once the call has succeeded. A failed or
/// interrupted call leaves FILE as it was and removes the temporary file.
final class OutputFile: @unchecked Sendable {
  /// The path the user gave.
  let path: String
  /// Where the output is written until it is complete.
  let temporaryPath: String
  /// The stream the printer writes to.
  let stream: OutputStream

  /// Creates the temporary file; a usage error (exit 2) when FILE's folder cannot take it.
  init(path: String) throws(APXError) {
    guard !path.isEmpty, path != "-" else {
      throw APXError(.usage, "-O needs a file name", hint: "leave -O out to print on stdout")
    }
    if FileKind.isDirectory(path) == true {
      throw APXError(.usage, "-O \(path) is a folder", hint: "name a file, e.g. -O \(path)/body.json")
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array((folder + "." + name + ".apx-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw APXError(
        .usage, "cannot write \(path): \(reason)",
        hint: "check that the folder \(folder.isEmpty ? "." : folder) exists and is writable")
    }
    self.path = path
    temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    // mkstemp makes the file 0600; the finished file gets the usual mode (0666 less umask).
    let mask = umask(0)
    umask(mask)
    fchmod(fd, 0o666 & ~mask)
    stream = OutputStream(fd: fd)
    OutputFileInterrupt.arm(temporaryPath)
  }

  /// Flushes, syncs and renames the file into place.
  func commit() throws(APXError) {
    stream.flush()
    let synced = fsync(stream.fd) == 0 && !stream.closed
    close(stream.fd)
    OutputFileInterrupt.disarm()
    guard synced, rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw APXError(.internalFailure, "cannot write \(path): \(reason)", hint: "check free space and permissions")
    }
  }

  /// Removes the temporary file; FILE is left as it was.
  func discard() {
    OutputFileInterrupt.disarm()
    close(stream.fd)
    unlink(temporaryPath)
  }
}

/// Ctrl-C (or SIGTERM) during `-O`: the temporary file is removed before apx ends with the
/// signal (see `InterruptCleanup`).
enum OutputFileInterrupt {
  static func arm(_ temporaryPath: String) { InterruptCleanup.setTemporaryFile(temporaryPath) }

  static func disarm() { InterruptCleanup.setTemporaryFile(nil) }
}
