public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP Archive (HAR 1.2) of a command's exchanges (`--har FILE`): every request apx
/// sent, redirects, retries, token requests and pages included, in the order they began.
/// Calls add their entries as they end (`HARRecorder`); the command writes the file once.
public final class HARLog: Sendable {
  private let entries = Mutex<[(started: Double, sequence: Int, entry: JSONValue)]>([])
  private let sequence = Atomic<Int>(0)
  /// Custom members of the log (HAR 1.2 allows names that start with `_`).
  private let custom = Mutex<[JSONMember]>([])

  public init() {}

  /// A recorder for one call's events.
  public func recorder() -> HARRecorder { HARRecorder(log: self) }

  func add(_ entry: JSONValue, started: Double) {
    let n = sequence.add(1, ordering: .relaxed).newValue
    entries.withLock { $0.append((started, n, entry)) }
  }

  /// Sets the custom member `name` of the log (it must start with `_`), replacing one of that name.
  public func setCustom(_ name: String, _ value: JSONValue) {
    custom.withLock { members in
      members.removeAll { $0.key == name }
      members.append(JSONMember(name, value))
    }
  }

  /// The archive as HAR 1.2 JSON.
  public func document(creatorVersion: String) -> JSONValue {
    let sorted = entries.withLock { $0 }.sorted { ($0.started, $0.sequence) < ($1.started, $1.sequence) }
    return .object([
      JSONMember(
        "log",
        .object(
          [
            JSONMember("version", .string("1.2")),
            JSONMember(
              "creator", .object([JSONMember("name", .string("apx")), JSONMember("version", .string(creatorVersion))])),
            JSONMember("entries", .array(sorted.map(\.entry))),
          ] + custom.withLock { $0 }))
    ])
  }

  /// Writes the archive to `path` (replacing it).
  /// - Throws: `.internalFailure` when the file cannot be written.
  public func write(to path: String, creatorVersion: String) throws(APXError) {
    let text = JSONPrinter(style: .pretty).string(document(creatorVersion: creatorVersion)) + "\n"
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw APXError(
        .internalFailure, "cannot write the HAR file \(path)", hint: "check that the folder exists and is writable",
        underlying: error)
    }
  }
}

extension HARLog {
  /// An observer for a `TokenManager` (`observe:`): each token request becomes an entry, with
  /// its answer's head (never its body, which holds the token).
  public func tokenRequests() -> @Sendable (CallEvent) -> Void {
    let current = TokenExchange(log: self)
    return { current.record($0) }
  }
}

/// The token request under way, for `HARLog.tokenRequests()`; token requests of one manager
/// run one at a time per API.
private final class TokenExchange: Sendable {
  private let log: HARLog
  private let recorder = Mutex<HARRecorder?>(nil)

  init(log: HARLog) { self.log = log }

  func record(_ event: CallEvent) {
    if case .requestSent = event { recorder.withLock { $0 = log.recorder() } }
    guard let current = recorder.withLock({ $0 }) else { return }
    current.record(event)
    if case .responseHead = event {
      current.record(.finished(status: nil, attempts: 1, failure: nil))
      recorder.withLock { $0 = nil }
    }
  }
}
