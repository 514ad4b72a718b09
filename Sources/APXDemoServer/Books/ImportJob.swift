import Synchronization

/// Per-job fault injection and speed, chosen by the import request.
struct ImportFaults: Sendable {
  /// Seconds spent per CSV row.
  var rowDelay: Double
  /// Close each SSE connection after this many events sent on it.
  var dropEvery: Int?
  /// How a dropped stream ends: a clean end of the response, or an aborted connection.
  var abortOnDrop = false
  /// Answer the SSE stream with 503 so clients must poll.
  var refuseStream = false
  /// Fraction of rows (0...1) at which the job fails.
  var failAt: Double?
  /// Ignore `Last-Event-ID` and replay the stream from its first event, as some servers do.
  var ignoreLastEventID = false
}

/// Life-cycle states of an import job.
enum ImportStatus: String, Sendable {
  case queued, processing, complete, failed

  var isTerminal: Bool { self == .complete || self == .failed }
}

/// One server-sent event of a job; the same event always keeps the same id.
struct ImportEvent: Sendable {
  /// 1-based position in the job's event list; sent as `evt-<sequence>`.
  let sequence: Int
  let name: String
  /// Event data; may span several lines.
  let data: String

  var id: String { "evt-\(sequence)" }
  var isTerminal: Bool { name == "complete" || name == "error" }

  /// The event in `text/event-stream` framing, one `data:` line per data line.
  var wireText: String {
    var text = "id: \(id)\nevent: \(name)\n"
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      text += "data: \(line)\n"
    }
    return text + "\n"
  }
}

/// A CSV import: what was uploaded, its progress, and every event it has emitted.
final class ImportJob: Sendable {
  /// A consistent copy of a job's mutable state.
  struct Snapshot: Sendable {
    var status: ImportStatus = .queued
    var processedRows = 0
    var result: JSONText?
    var errorMessage: String?
    var events: [ImportEvent] = []
  }

  let id: String
  let totalRows: Int
  let skippedCount: Int
  let skippedRows: [CSVImportScanner.SkippedRow]
  let faults: ImportFaults
  private let state = Mutex(Snapshot())

  init(id: String, scan: CSVImportScanner, faults: ImportFaults) {
    self.id = id
    self.totalRows = scan.dataRows
    self.skippedCount = scan.skippedCount
    self.skippedRows = scan.skippedRows
    self.faults = faults
  }

  /// The current state.
  var snapshot: Snapshot { state.withLock { $0 } }

  /// Progress as a fraction in 0...1.
  static func progress(processed: Int, total: Int) -> Double {
    total == 0 ? 1 : Double(processed) / Double(total)
  }

  /// Events after the first `count` ones, and whether the job has finished.
  func events(after count: Int) -> (events: ArraySlice<ImportEvent>, finished: Bool) {
    state.withLock { snapshot in
      let start = min(max(count, 0), snapshot.events.count)
      return (snapshot.events[start...], snapshot.status.isTerminal)
    }
  }

  /// Applies `change` to the state and appends the event named `name` with `data`.
  func record(event name: String, data: String, change: (inout Snapshot) -> Void = { _ in }) {
    state.withLock { snapshot in
      change(&snapshot)
      snapshot.events.append(ImportEvent(sequence: snapshot.events.count + 1, name: name, data: data))
    }
  }

  /// The status document served by `GET /api/v2/imports/{id}`.
  var statusJSON: JSONText {
    let current = snapshot
    var members: [(String, JSONText)] = [
      ("job_id", .string(id)),
      ("status", .string(current.status.rawValue)),
      ("progress", .double(Self.progress(processed: current.processedRows, total: totalRows))),
      ("processed_rows", .int(current.processedRows)),
      ("total_rows", .int(totalRows)),
    ]
    if let result = current.result { members.append(("result", result)) }
    if let message = current.errorMessage {
      members.append(("error", .object([("message", .string(message))])))
    }
    return .object(members)
  }

  /// The result summary once every row was processed.
  var resultSummary: JSONText {
    .object([
      ("imported", .int(totalRows - skippedCount)),
      ("skipped", .int(skippedCount)),
      (
        "errors",
        .array(
          skippedRows.map { .object([("row", .int($0.row)), ("message", .string($0.message))]) }
        )
      ),
    ])
  }
}
