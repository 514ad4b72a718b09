import APXCore
import APXRuntime

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

/// `-O FILE`: the call's output goes to a temporary file beside FILE, which replaces FILE
/// (a rename, atomic on one file system) only once the call has succeeded. A failed or
/// interrupted call leaves FILE as it was and removes the temporary file.
///
/// As `curl -o` does, an existing FILE keeps its mode and a symbolic link is written
/// through: the file replaced is the one the link points to, and the link stays.
final class OutputFile: @unchecked Sendable {
  /// The path the user gave.
  let path: String
  /// The file replaced: `path`, or the file its symbolic links lead to.
  let target: String
  /// Where the output is written until it is complete.
  let temporaryPath: String
  /// The stream the printer writes to.
  let stream: OutputStream

  /// Creates the temporary file; a usage error (exit 2) when FILE's folder cannot take it.
  /// `flag` names the option in messages (`-O`, `--har`).
  init(path: String, flag: String = "-O") throws(APXError) {
    let (target, folder, name) = try Self.place(path, flag: flag)
    // As mkstemp (a new file, 0600), but armed before it exists: a signal that comes between
    // creating the file and arming the cleanup would leave it behind.
    var fd: Int32 = -1
    var candidate = ""
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    for _ in 0..<100 where fd < 0 {
      candidate = folder + "." + name + ".apx-" + String((0..<6).map { _ in letters.randomElement()! })
      OutputFileInterrupt.arm(candidate)
      fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd < 0 && errno != EEXIST { break }
    }
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      OutputFileInterrupt.disarm()
      throw APXError(
        .usage, "cannot write \(path): \(reason)",
        hint: "check that the folder \(folder.isEmpty ? "." : folder) exists and is writable")
    }
    self.path = path
    self.target = target
    temporaryPath = candidate
    Self.giveMode(fd, of: target)
    stream = OutputStream(fd: fd)
  }

  /// The file being written is 0600; the finished file keeps `target`'s mode, or gets the
  /// usual one for a new file (0666 less umask): a private file must not become readable by others.
  static func giveMode(_ fd: Int32, of target: String) {
    let existing = try? FileManager.default.attributesOfItem(atPath: target)
    if existing?[.type] as? FileAttributeType == .typeRegular, let mode = Self.mode(existing?[.posixPermissions]) {
      fchmod(fd, mode_t(mode & 0o7777))
    } else {
      let mask = umask(0)
      umask(mask)
      fchmod(fd, 0o666 & ~mask)
    }
  }

  /// A file's permission bits as FileManager reports them: an `NSNumber` where full Foundation is
  /// linked (the debug build), a fixed-width integer where only FoundationEssentials is (the
  /// release build links no more), so `as? Int` alone found no mode in the shipped binary.
  static func mode(_ value: Any?) -> Int? {
    if let number = value as? Int { return number }
    return (value as? any BinaryInteger).map { Int(truncatingIfNeeded: $0) }
  }

  /// Where `-O PATH` writes: the file replaced (`linkTarget`), its folder (with its slash, or
  /// empty) and its name. A usage error (exit 2) for no name, `-`, or a folder.
  static func place(_ path: String, flag: String = "-O") throws(APXError) -> (
    target: String, folder: String, name: String
  ) {
    guard !path.isEmpty, path != "-" else {
      throw APXError(.usage, "\(flag) needs a file name", hint: "leave \(flag) out to print on stdout")
    }
    if FileKind.isDirectory(path) == true {
      throw APXError(.usage, "\(flag) \(path) is a folder", hint: "name a file, e.g. \(flag) \(path)/body.json")
    }
    let target = linkTarget(path)
    let slash = target.lastIndex(of: "/")
    let folder = slash.map { String(target[...$0]) } ?? ""
    let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
    return (target, folder, name)
  }

  /// Refuses (exit 2) a FILE that could not be written later, before anything is sent: no
  /// name, a folder, or a folder that does not exist or takes no new file.
  static func checkWritable(_ path: String, flag: String) throws(APXError) {
    let (_, folder, _) = try place(path, flag: flag)
    let dir = folder.isEmpty ? "." : folder
    guard access(dir, W_OK | X_OK) == 0 else {
      throw APXError(
        .usage, "cannot write \(path): \(String(cString: strerror(errno)))",
        hint: "check that the folder \(dir) exists and is writable")
    }
  }

  /// Flushes, syncs and renames the file into place.
  func commit() throws(APXError) {
    stream.flush()
    let synced = fsync(stream.fd) == 0 && !stream.closed
    close(stream.fd)
    OutputFileInterrupt.disarm()
    guard synced, rename(temporaryPath, target) == 0 else {
      // A failed write (ENOSPC: "No space left on device") says why, not fsync's errno.
      let reason = String(cString: strerror(stream.closed ? stream.failure : errno))
      unlink(temporaryPath)
      throw APXError(.internalFailure, "cannot write \(path): \(reason)", hint: "check free space and permissions")
    }
  }

  /// The path that symbolic links starting at `path` lead to (the last one may not exist
  /// yet), or `path` itself when it is no link. A relative link is read from its folder.
  static func linkTarget(_ path: String) -> String {
    var current = path
    // The kernel's own limit on links followed in one lookup (ELOOP beyond it).
    for _ in 0..<40 {
      // attributesOfItem does not follow a link (lstat).
      guard
        (try? FileManager.default.attributesOfItem(atPath: current))?[.type] as? FileAttributeType
          == .typeSymbolicLink,
        let link = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
      else { return current }
      if link.hasPrefix("/") {
        current = link
      } else if let slash = current.lastIndex(of: "/") {
        current = String(current[...slash]) + link
      } else {
        current = link
      }
    }
    return current
  }

  /// Removes the temporary file; FILE is left as it was.
  func discard() {
    OutputFileInterrupt.disarm()
    close(stream.fd)
    unlink(temporaryPath)
  }
}

/// Ctrl-C, SIGTERM or SIGHUP during `-O`: the temporary file is removed before apx ends with the
/// signal (see `InterruptCleanup`).
enum OutputFileInterrupt {
  static func arm(_ temporaryPath: String) { InterruptCleanup.setTemporaryFile(temporaryPath) }

  static func disarm() { InterruptCleanup.setTemporaryFile(nil) }
}
