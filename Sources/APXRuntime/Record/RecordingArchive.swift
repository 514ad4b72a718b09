public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP archive `apx mock --record DIR` writes: one file per run in DIR
/// (`recording-20261127T134200-123Z.har`, named by its start in UTC, so that name order is
/// recording order), rewritten whole (atomically) as each exchange ends, so that what was
/// recorded is on disk whenever the process stops. A write that fails is kept: the proxy
/// forwards nothing more, and `failures` hands it to the command, which stops.
public final class RecordingArchive: Sendable {
  /// The archive's path.
  public let path: String
  /// The exchanges recorded so far.
  public let log = HARLog()
  private let creatorVersion: String
  /// The first failed write, nil while writes succeed; writes happen under its lock, one at a time.
  private let state = Mutex<APXError?>(nil)
  private let failed: AsyncStream<APXError>.Continuation
  /// Yields the first failed write, then ends.
  public let failures: AsyncStream<APXError>
  /// The exchanges begun and not ended yet.
  private let open = Mutex<[ObjectIdentifier: HARRecorder]>([:])

  /// Creates `directory` (and its parents) when missing and writes an empty archive in it.
  /// - Throws: `.usage` when the folder cannot be made or written, or the file exists already
  ///   (an earlier recording is never overwritten).
  public init(directory: String, creatorVersion: String) throws(APXError) {
    let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
      .filter { $0 != "-" && $0 != ":" }.replacing(".", with: "-")
    path = (directory.hasSuffix("/") ? directory : directory + "/") + "recording-\(stamp).har"
    self.creatorVersion = creatorVersion
    (failures, failed) = AsyncStream.makeStream(of: APXError.self)
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
      throw APXError(
        .usage, "--record: cannot make the folder \(directory)", hint: "give a folder you can write to",
        underlying: error)
    }
    guard !FileManager.default.fileExists(atPath: path) else {
      throw APXError(
        .usage, "--record: \(path) exists already", hint: "start the recording again: its file is named by the time")
    }
    do {
      try log.write(to: path, creatorVersion: creatorVersion)
    } catch {
      throw APXError(.usage, "--record: cannot write in \(directory)", hint: error.hint, underlying: error)
    }
  }

  /// A recorder for one exchange, open until `end(_:)`.
  public func begin() -> HARRecorder {
    let recorder = log.recorder()
    open.withLock { $0[ObjectIdentifier(recorder)] = recorder }
    return recorder
  }

  /// Writes the archive with the exchange of `recorder`, which has recorded its end.
  public func end(_ recorder: HARRecorder) {
    open.withLock { $0[ObjectIdentifier(recorder)] = nil }
    save()
  }

  /// Forgets the exchange of `recorder`, which got no answer: it is not recorded.
  public func discard(_ recorder: HARRecorder) {
    open.withLock { $0[ObjectIdentifier(recorder)] = nil }
  }

  /// Ends the exchanges still under way (a stream when the proxy stops) with what they have
  /// received, and writes the archive, so that stopping loses nothing.
  public func endOpenExchanges() {
    let recorders = open.withLock { open in
      defer { open.removeAll() }
      return Array(open.values)
    }
    guard !recorders.isEmpty else { return }
    for recorder in recorders { recorder.record(.finished(status: nil, attempts: 1, failure: nil)) }
    save()
  }

  /// The failed write that stopped the recording, if one did.
  public var failure: APXError? { state.withLock { $0 } }

  /// Writes the archive with every exchange ended so far. A failure is kept, handed to
  /// `failures`, and returned; after one, nothing more is written.
  @discardableResult
  public func save() -> APXError? {
    state.withLock { failure -> APXError? in
      if let failure { return failure }
      do throws(APXError) {
        try log.write(to: path, creatorVersion: creatorVersion)
        return nil
      } catch {
        let stopped = APXError(
          .internalFailure, "the recording \(path) could not be written, so apx mock stopped",
          hint: "the exchanges before the last one are in the file; check the folder and free space, then record again",
          cause: error.cause ?? error.message, underlying: error)
        failure = stopped
        failed.yield(stopped)
        failed.finish()
        return stopped
      }
    }
  }
}
