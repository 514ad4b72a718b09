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
/// refreshing the same token take turns instead of clobbering each other.
/// The lock is released by `unlock()` or when the process exits.
final class FileLock: @unchecked Sendable {
  // The descriptor is only touched by the task that holds the lock.
  private var descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Waits (polling, without blocking a thread) until the lock on `path` is
  /// held, creating the file with mode 0600 if needed.
  ///
  /// - Throws: `APXError` (`.auth`) when the file cannot be opened or the lock
  ///   is still held by another process after `timeout` seconds.
  static func acquire(path: String, timeout: Double = 30) async throws -> FileLock {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw APXError(
        .auth, "cannot open the token lock file \(path): \(reason)",
        hint: "check the permissions of the folder (set APX_STATE_DIR to use another one)")
    }
    var waited = 0.0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else {
        close(fd)
        throw APXError(.auth, "cannot lock \(path): \(String(cString: strerror(code)))")
      }
      if waited >= timeout {
        close(fd)
        throw APXError(
          .auth, "another apx process has held the token lock \(path) for \(Int(timeout))s",
          hint: "wait for it to finish, or remove the lock file if no apx process is running")
      }
      do {
        try await Task.sleep(for: .milliseconds(20))
      } catch {
        close(fd)
        throw error
      }
      waited += 0.02
    }
    return FileLock(descriptor: fd)
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
