import APXCore

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

/// An exclusive advisory lock on a file (`flock`), so two apx processes
/// refreshing the same token take turns instead of clobbering each other, and
/// one recipe run is never run by two processes at once. The lock is released
/// by `unlock()` or when the process exits (also when it is killed, so a dead
/// process never leaves a lock behind).
final class FileLock: @unchecked Sendable {
  // The descriptor is only touched by the task that holds the lock.
  private var descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Opens `path` (creating it with mode 0600) and takes the lock if no other
  /// process holds it, without waiting.
  /// - Returns: the held lock, or nil when another process holds it.
  /// - Throws: `FileLockFailure` when the file cannot be opened or locked.
  static func take(path: String) throws(FileLockFailure) -> FileLock? {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw FileLockFailure(opening: true, code: errno) }
    let lock = FileLock(descriptor: fd)
    return try lock.tryLock() ? lock : nil
  }

  /// One non-blocking attempt on the open file: true when the lock is held.
  private func tryLock() throws(FileLockFailure) -> Bool {
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
    let code = errno
    guard code == EWOULDBLOCK || code == EINTR else { throw FileLockFailure(opening: false, code: code) }
    return false
  }

  /// Waits (polling, without blocking a thread) until the lock on `path` is
  /// held, creating the file with mode 0600 if needed.
  ///
  /// - Throws: `APXError` (`status`, `.auth` by default) when the file cannot be opened or the
  ///   lock is still held by another process after `timeout` seconds; `what` names the lock
  ///   in the message ("token lock", "cookie session lock").
  static func acquire(
    path: String, timeout: Double = 30, status: ExitStatus = .auth, what: String = "token lock"
  ) async throws -> FileLock {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let failure = FileLockFailure(opening: true, code: errno)
      throw APXError(
        status, "cannot open the \(what) file \(path): \(failure.reason)",
        hint: "check the permissions of the folder (set APX_STATE_DIR to use another one)", cause: failure.reason,
        underlying: failure)
    }
    // The lock owns the descriptor from here: a throw below closes it.
    let lock = FileLock(descriptor: fd)
    var waited = 0.0
    while true {
      do {
        if try lock.tryLock() { break }
      } catch {
        throw APXError(status, "cannot lock \(path): \(error.reason)")
      }
      if waited >= timeout {
        throw APXError(
          status, "another apx process has held the \(what) \(path) for \(Int(timeout))s",
          hint: "wait for it to finish, or remove the lock file if no apx process is running")
      }
      try await Task.sleep(for: .milliseconds(20))
      waited += 0.02
    }
    return lock
  }

  /// Replaces the file's contents with `text` (e.g. the holder's pid, for a message to a process that waits).
  func write(_ text: String) {
    guard descriptor >= 0, ftruncate(descriptor, 0) == 0 else { return }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress!, $0.count, 0) }
  }

  /// Releases the lock (idempotent).
  func unlock() {
    guard descriptor >= 0 else { return }
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
    descriptor = -1
  }

  deinit { unlock() }
}

/// Why a lock file could not be opened or locked: the `errno` of `open` or `flock`.
struct FileLockFailure: Error, Sendable {
  /// True when `open` failed, false when `flock` did.
  var opening: Bool
  var code: Int32

  /// The system's text for the error, e.g. "Read-only file system".
  var reason: String { String(cString: strerror(code)) }
}
