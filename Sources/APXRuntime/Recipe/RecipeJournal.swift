public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The journal of one recipe run: JSON lines in `<state>/runs/<run-id>.jsonl`
/// (mode 0600), written as the run goes (one `write` per line, so a killed
/// process loses nothing) and fsync'd after the steps and loop items that are
/// not safe to repeat (see `RecipeRunner.safeToRepeat`), with secrets masked.
/// `apx run --resume` reads it back (`RecipeJournalRecord`) to skip finished
/// steps and items and to resume a stream from its last event. The lines are
/// `RecipeJournalEntry` values: that type is the format's one encoder and decoder.
///
/// A line that cannot be written or synced (a full disk, an I/O error) is an
/// error, and it stays one: every later `append` throws it too, so the runner
/// stops before its next call instead of running steps a resume cannot see.
public final class RecipeJournal: Sendable {
  /// The run's id (the file name without `.jsonl`).
  public let runID: String
  /// The file's path.
  public let path: String
  private let fd: Int32
  private let mask: Mutex<SecretMask>
  private let lost: Mutex<APXError?> = Mutex(nil)
  /// Held as long as the journal is open: no other process runs this run meanwhile.
  private let lock: RecipeRunLock?

  /// Creates (or, for a resume, appends to) the journal of `runID` under `stateDirectory/runs`;
  /// `lock`, the run's, is kept until the journal is released.
  public init(stateDirectory: String, runID: String, mask: SecretMask, lock: RecipeRunLock? = nil) throws(APXError) {
    let dir = stateDirectory + "/runs"
    do {
      try FileManager.default.createDirectory(
        atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw APXError(
        .usage, "cannot create the journal folder \(dir)", hint: "set APX_STATE_DIR to a writable folder",
        underlying: error)
    }
    self.runID = runID
    self.path = dir + "/" + runID + ".jsonl"
    let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw APXError(
        .usage, "cannot write the journal \(path)", hint: "set APX_STATE_DIR to a writable folder",
        cause: String(cString: strerror(errno)))
    }
    // An existing file keeps its mode; make sure nobody else can read it (not a device's, though).
    if (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType == .typeRegular {
      fchmod(fd, 0o600)
    }
    // A resume appends after a line cut short: end it, so the new lines stay lines of their own.
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    if attributes?[.type] as? FileAttributeType == .typeRegular, let size = attributes?[.size] as? Int, size > 0,
      Self.lastByte(of: path, size: size) != UInt8(ascii: "\n")
    {
      _ = write(fd, "\n", 1)
    }
    self.fd = fd
    self.mask = Mutex(mask)
    self.lock = lock
  }

  deinit { close(fd) }

  /// The last byte of the file at `path` of `size` bytes, nil when it cannot be read.
  private static func lastByte(of path: String, size: Int) -> UInt8? {
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    guard reader >= 0 else { return nil }
    defer { close(reader) }
    var byte: UInt8 = 0
    return pread(reader, &byte, 1, off_t(size - 1)) == 1 ? byte : nil
  }

  /// Registers another secret to mask in later lines.
  public func addSecret(_ secret: String) { mask.withLock { $0.add(secret) } }

  /// The first write or sync that failed, if any: the journal no longer records the run.
  public var failure: APXError? { lost.withLock { $0 } }

  /// Appends one line (masked); `sync` forces it to disk.
  /// - Throws: `.internalFailure` when the line cannot be written or synced, or an earlier one could not.
  public func append(_ entry: RecipeJournalEntry, sync: Bool = false) throws(APXError) {
    if let failure { throw failure }
    let text = mask.withLock { $0.mask(entry.json.compactJSON) } + "\n"
    var bytes = Array(text.utf8)
    let code = bytes.withUnsafeMutableBytes { raw -> Int32 in
      var offset = 0
      while offset < raw.count {
        let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += n
      }
      return 0
    }
    if code != 0 { throw failed(code) }
    if sync { try self.sync() }
  }

  /// Forces everything written so far to disk.
  /// - Throws: `.internalFailure` when `fsync` fails, or an earlier write did.
  public func sync() throws(APXError) {
    if let failure { throw failure }
    if fsync(fd) != 0 { throw failed(errno) }
  }

  /// Records (once) and returns the error for a failed write or sync with `code`.
  private func failed(_ code: Int32) -> APXError {
    let error = APXError(
      .internalFailure, "cannot write the run journal \(path)",
      hint:
        "the run stopped, since a later --resume could not know what it did; free some space or set APX_STATE_DIR to a writable folder, then check what the steps that ran did before running the recipe again",
      cause: String(cString: strerror(code)))
    return lost.withLock { first in
      if first == nil { first = error }
      return first!
    }
  }

  /// A new run id: UTC time plus random letters, sortable by start time.
  public static func newRunID(now: Date = Date()) -> String {
    // yyyyMMdd'T'HHmmss in UTC.
    let formatter = Date.ISO8601FormatStyle(dateSeparator: .omitted, timeSeparator: .omitted, timeZone: .gmt)
      .year().month().day().time(includingFractionalSeconds: false)
    let letters = Array("abcdefghijkmnpqrstuvwxyz23456789")
    let suffix = String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
    return formatter.format(now) + "-" + suffix
  }

  /// The ISO 8601 text of `date`, for journal lines.
  public static func timestamp(_ date: Date = Date()) -> String {
    date.formatted(.iso8601)
  }
}

/// A journal read back for `--resume`.
public struct RecipeJournalRecord: Sendable {
  /// The run's id.
  public var runID: String
  /// The recipe file's absolute path, as recorded at the start.
  public var recipePath: String
  /// The inputs of the first start (secret ones masked, so they must be given again).
  public var inputs: [JSONMember]
  /// Inputs that were masked and must be passed again.
  public var secretInputs: [String]
  /// Results of steps that finished (ok or skipped), by id.
  public var finished: [String: JSONValue]
  /// Stream items of steps that did not finish, by step id, in order.
  public var partialEvents: [String: [JSONValue]]
  /// Foreach items that finished in steps that did not, by step id.
  public var finishedItems: [String: RecipeFinishedItems] = [:]
  /// Whether the last recorded state is a successful end.
  public var completed: Bool
  /// The state of the last end line (`ok`, `failed`, `interrupted`), nil when the process died.
  public var lastState: String?
  /// Calls recorded as about to be sent with no outcome after them, by step id.
  public var unsettled: [String: [RecipeStartedCall]] = [:]
  /// Whether the journal's last line was cut short (a full disk, a crash mid-write): what it
  /// recorded is unknown, so the first step that did not finish may have been sent.
  public var truncatedTail = false

  /// Reads a journal file.
  public static func read(path: String) throws(APXError) -> RecipeJournalRecord {
    let bytes = try FileBytes.read(path)
    var record = RecipeJournalRecord(
      runID: PathText.deletingExtension(PathText.lastComponent(path)), recipePath: "", inputs: [],
      secretInputs: [], finished: [:], partialEvents: [:], completed: false, lastState: nil)
    var sawStart = false
    let lines = bytes.split(separator: UInt8(ascii: "\n"))
    for (number, line) in lines.enumerated() {
      // A line cut short by a crash is not fatal; the last one makes what it recorded unknown.
      guard let value = try? JSONParser.parse(Array(line)) else {
        if number == lines.count - 1 { record.truncatedTail = true }
        continue
      }
      guard let entry = RecipeJournalEntry(json: value) else { continue }
      switch entry {
      case .start(let start):
        if !sawStart {
          record.recipePath = start.recipePath
          record.inputs = start.inputs
          record.secretInputs = start.secretInputs
          sawStart = true
        }
        record.completed = false
        record.lastState = nil
      case .started(let id, let index, let request):
        record.unsettled[id, default: []].append(RecipeStartedCall(index: index, request: request))
      case .step(let id, let state, let result, _):
        // Whatever its state, the step's calls were answered (or never sent): their outcome is known.
        record.unsettled[id] = nil
        if state == .ok || state == .skipped {
          record.finished[id] = result
          record.partialEvents[id] = nil
          record.finishedItems[id] = nil
        }
      case .item(let id, let index, let count, let result):
        guard index >= 0, index < count else { continue }
        if record.finishedItems[id]?.count != count {
          // The loop's list changed size between runs: indexes no longer name the same items.
          record.finishedItems[id] = RecipeFinishedItems(count: count)
        }
        record.finishedItems[id]?.results[index] = result ?? .null
        record.unsettled[id]?.removeAll { $0.index == index }
        if record.unsettled[id]?.isEmpty == true { record.unsettled[id] = nil }
      case .event(let id, let item):
        record.partialEvents[id, default: []].append(item)
      case .end(let state, _):
        record.lastState = state
        record.completed = state == "ok"
      case .interrupted:
        continue
      }
    }
    guard sawStart else {
      throw APXError(.usage, "\(path) is not a recipe journal", hint: "pick a run id from the runs folder")
    }
    return record
  }

  /// The latest run of the recipe at `recipePath` that did not complete, in `stateDirectory/runs`.
  public static func latestUnfinished(stateDirectory: String, recipePath: String) -> RecipeJournalRecord? {
    let dir = stateDirectory + "/runs"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return nil }
    // Run ids start with their UTC start time, so name order is start order.
    for name in names.filter({ $0.hasSuffix(".jsonl") }).sorted().reversed() {
      guard let record = try? read(path: dir + "/" + name) else { continue }
      if record.recipePath == recipePath, !record.completed { return record }
    }
    return nil
  }
}

/// The items of one foreach step that finished before a run stopped: the
/// loop's item (or chunk) count and each finished item's journaled result
/// (null when nothing later reads it).
public struct RecipeFinishedItems: Sendable, Hashable {
  /// How many items (or chunks) the loop had.
  public var count: Int
  /// Results of finished items, by index.
  public var results: [Int: JSONValue]

  /// Makes an empty set of finished items for a loop of `count` items.
  public init(count: Int, results: [Int: JSONValue] = [:]) {
    self.count = count
    self.results = results
  }
}
