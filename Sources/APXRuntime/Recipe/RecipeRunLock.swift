public import APXCore

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

/// The lock that keeps a recipe run to one process at a time:
/// `<state>/locks/runs/<run-id>.lock` (beside the journals, not among them), held (`FileLock`, an `flock`) from before the
/// run's journal is read for a resume until the process ends, so two
/// `apx run --resume` of one run never both send its next step. The file holds
/// the holder's pid for the message; the kernel drops the lock when the holder
/// dies, so a stale file never blocks. Files are left in place: removing one
/// while another process has it open would let two processes lock two files.
public final class RecipeRunLock: Sendable {
  private let lock: FileLock

  private init(lock: FileLock) { self.lock = lock }

  /// Takes the lock of `runID`, without waiting.
  /// - Throws: `.usage` when another process holds it ("run ID is in progress
  ///   (pid N)"), or when the lock file cannot be created.
  public static func take(stateDirectory: String, runID: String) throws(APXError) -> RecipeRunLock {
    let dir = stateDirectory + "/locks/runs"
    let path = dir + "/" + runID + ".lock"
    do {
      try FileManager.default.createDirectory(
        atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw APXError(
        .usage, "cannot create the lock folder \(dir)", hint: "set APX_STATE_DIR to a writable folder",
        underlying: error)
    }
    let taken: FileLock?
    do {
      taken = try FileLock.take(path: path)
    } catch {
      throw APXError(
        .usage, "cannot lock the run \(runID) (\(path))", hint: "set APX_STATE_DIR to a writable folder",
        cause: error.reason)
    }
    guard let taken else {
      let holder = (try? FileBytes.read(path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      let pid = holder.isEmpty ? "" : " (pid \(holder))"
      throw APXError(
        .usage, "run \(runID) is in progress\(pid)",
        hint: "wait for that process to end (or stop it), then resume the run again")
    }
    taken.write(String(getpid()))
    return RecipeRunLock(lock: taken)
  }
}
