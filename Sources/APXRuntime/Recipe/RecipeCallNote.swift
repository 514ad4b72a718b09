public import APXCore
import Synchronization

/// What a step's call went through on its way to an answer, taken from the
/// call's events: a retry, a stream reconnect, a fallback to polling, a job's
/// progress, a note. A recipe reports them as `apx call` does: live under
/// `--events`, summed up in the step's status line and its JUnit testcase.
public enum RecipeCallNote: Sendable, Hashable {
  /// Waiting before attempt `attempt`.
  case retrying(attempt: Int, after: Double, reason: String)
  /// A stream dropped and will be reopened.
  case reconnecting(after: Double, reason: String, lastEventID: String?)
  /// The stream kept failing; polling `endpoint` instead.
  case fellBackToPolling(endpoint: String, interval: Double)
  /// A long-running job's progress.
  case progress(fraction: Double?, done: Double?, total: Double?)
  /// Anything else worth saying (a stream that ended without its final event).
  case note(String)

  /// The note a call event carries, nil for events that are not notes.
  public init?(_ event: CallEvent) {
    switch event {
    case .retrying(let attempt, let after, let reason): self = .retrying(attempt: attempt, after: after, reason: reason)
    case .reconnecting(let after, let reason, let id):
      self = .reconnecting(after: after, reason: reason, lastEventID: id)
    case .fellBackToPolling(let endpoint, let interval):
      self = .fellBackToPolling(endpoint: endpoint, interval: interval)
    case .progress(let fraction, let done, let total): self = .progress(fraction: fraction, done: done, total: total)
    case .note(let text): self = .note(text)
    default: return nil
    }
  }

  /// One line for people, worded as `apx call` words it on stderr.
  public var text: String {
    switch self {
    case .retrying(let attempt, let after, let reason):
      "\(reason); retrying in \(RecipeStatusText.seconds(after)) (attempt \(attempt))"
    case .reconnecting(let after, let reason, let id):
      "\(reason); reconnecting in \(RecipeStatusText.seconds(after))" + (id.map { " from \($0)" } ?? "")
    case .fellBackToPolling(let endpoint, let interval):
      "the stream keeps failing; polling \(endpoint) every \(RecipeStatusText.seconds(interval)) instead"
    case .progress(let fraction, let done, let total):
      "progress "
        + (fraction.map { "\(Int(($0 * 100).rounded()))%" }
          ?? done.map { d in "\(Self.number(d))" + (total.map { "/\(Self.number($0))" } ?? "") } ?? "unknown")
    case .note(let text): text
    }
  }

  /// The `--events` line of this note for `step`: `{"type": NAME, "step": ID, fields…}`.
  public func event(step: String) -> JSONValue {
    let type: String
    var fields: [JSONMember] = []
    switch self {
    case .retrying(let attempt, let after, let reason):
      type = "retrying"
      fields = [
        JSONMember("attempt", .int(attempt)), JSONMember("after", .number(Self.number(after))),
        JSONMember("reason", .string(reason)),
      ]
    case .reconnecting(let after, let reason, let id):
      type = "reconnecting"
      fields = [JSONMember("after", .number(Self.number(after))), JSONMember("reason", .string(reason))]
      if let id { fields.append(JSONMember("last_event_id", .string(id))) }
    case .fellBackToPolling(let endpoint, let interval):
      type = "fell_back_to_polling"
      fields = [JSONMember("endpoint", .string(endpoint)), JSONMember("interval", .number(Self.number(interval)))]
    case .progress(let fraction, let done, let total):
      type = "progress"
      if let fraction { fields.append(JSONMember("fraction", .number(Self.number(fraction)))) }
      if let done { fields.append(JSONMember("done", .number(Self.number(done)))) }
      if let total { fields.append(JSONMember("total", .number(Self.number(total)))) }
    case .note(let text):
      type = "note"
      fields = [JSONMember("text", .string(text))]
    }
    return .object([JSONMember("type", .string(type)), JSONMember("step", .string(step))] + fields)
  }

  /// A number's JSON text: whole numbers without a fraction.
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
  }
}

/// A step's call notes summed up for its status line and its report (over
/// every call of the step: foreach items and `until` repetitions included).
public struct RecipeCallSummary: Sendable, Hashable {
  /// Retries (attempts after the first) over the step's calls.
  public var retries = 0
  /// Stream reconnects.
  public var reconnects = 0
  /// Endpoints polled after a stream kept failing, in order, each once.
  public var fallbacks: [String] = []
  /// The first notes' texts (progress left out), for the report.
  public var lines: [String] = []
  /// Notes left out of `lines`.
  public var omitted = 0

  /// Most note lines kept per step: a 10,000-item loop that retries must not grow without bound.
  public static let lineLimit = 50

  /// Makes an empty summary.
  public init() {}

  /// Adds one note.
  public mutating func add(_ note: RecipeCallNote) {
    switch note {
    case .retrying: retries += 1
    case .reconnecting: reconnects += 1
    case .fellBackToPolling(let endpoint, _): if !fallbacks.contains(endpoint) { fallbacks.append(endpoint) }
    case .progress: return
    case .note: break
    }
    if lines.count < Self.lineLimit { lines.append(note.text) } else { omitted += 1 }
  }

  /// Nothing happened worth reporting.
  public var isEmpty: Bool { lines.isEmpty && omitted == 0 }

  /// `2 retries`, `1 reconnect`, `fell back to polling books.imports.get`, for the status line.
  public var details: [String] {
    var out: [String] = []
    if retries > 0 { out.append("\(retries) retr\(retries == 1 ? "y" : "ies")") }
    if reconnects > 0 { out.append("\(reconnects) reconnect\(reconnects == 1 ? "" : "s")") }
    if !fallbacks.isEmpty { out.append("fell back to polling " + fallbacks.joined(separator: ", ")) }
    return out
  }
}

/// Collects the notes of one step's calls across the loop tasks that make them.
final class StepNotes: Sendable {
  private let summary = Mutex(RecipeCallSummary())

  func add(_ note: RecipeCallNote) { summary.withLock { $0.add(note) } }

  var current: RecipeCallSummary { summary.withLock { $0 } }
}
