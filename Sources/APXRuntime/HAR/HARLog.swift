public import APXCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The HTTP Archive (HAR 1.2) of a command's exchanges (`--har FILE`): every request apx
/// sent, redirects, retries, token requests and pages included, in the order they began.
/// Calls add their entries as they end (`HARRecorder`), each already as its JSON text, so that
/// a run of many calls holds bytes rather than a tree of values; the command writes the file once.
public final class HARLog: Sendable {
  /// The nesting of an entry in the archive (`{"log": {"entries": [ENTRY]}}`): entries are
  /// written as they print there.
  static let entryDepth = 3

  private let entries = Mutex(Entries())
  /// Custom members of the log (HAR 1.2 allows names that start with `_`).
  private let custom = Mutex<[JSONMember]>([])

  /// The entries' JSON texts one after another in the order they ended, in a few large chunks
  /// rather than an allocation each, and where each is with when its request began. A text
  /// that may not fit in the last chunk's room starts the next, so no text is copied again as
  /// the archive grows.
  struct Entries {
    var chunks: [[UInt8]] = []
    var index: [Entry] = []
    /// The bytes of all texts.
    var count = 0
  }

  /// Where one entry's text is, and when its request began (ties keep the order entries ended).
  struct Entry {
    var started: Double
    var chunk: Int
    var range: Range<Int>
  }

  /// The capacity of a chunk (a text larger than it gets a chunk of its own size).
  static let chunkSize = 1 << 20

  public init() {}

  /// A recorder for one call's events.
  public func recorder() -> HARRecorder { HARRecorder(log: self) }

  /// Adds an entry: its JSON text, pretty, as it prints at `entryDepth`.
  func add(_ json: [UInt8], started: Double) {
    add(started: started, size: json.count) { $0.text(json[...]) }
  }

  /// Adds an entry that `write` writes straight into the archive's text, so that it needs no
  /// buffer of its own; `size` is about as many bytes as it will take (a text that does not fit
  /// the chunk's room makes the chunk grow, which costs a copy but loses nothing).
  func add(started: Double, size: Int, _ write: (inout JSONWriter) -> Void) {
    entries.withLock { entries in
      var text: JSONWriter
      if let last = entries.chunks.last, last.capacity - last.count >= size {
        text = JSONWriter(appendingTo: entries.chunks.removeLast(), depth: Self.entryDepth)
      } else {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(max(Self.chunkSize, size))
        text = JSONWriter(appendingTo: chunk, depth: Self.entryDepth)
      }
      let start = text.bytes.count
      write(&text)
      let end = text.bytes.count
      entries.chunks.append(text.bytes)
      entries.count += end - start
      entries.index.append(Entry(started: started, chunk: entries.chunks.count - 1, range: start..<end))
    }
  }

  /// Sets the custom member `name` of the log (it must start with `_`), replacing one of that name.
  public func setCustom(_ name: String, _ value: JSONValue) {
    custom.withLock { members in
      members.removeAll { $0.key == name }
      members.append(JSONMember(name, value))
    }
  }

  /// The archive as HAR 1.2 JSON text, pretty, ending with a newline.
  public func json(creatorVersion: String) -> [UInt8] {
    let entries = entries.withLock { $0 }
    // Stable: entries that began at the same moment stay in the order they ended.
    let sorted = entries.index.enumerated().sorted { ($0.element.started, $0.offset) < ($1.element.started, $1.offset) }
    let members = custom.withLock { $0 }
    var out = JSONWriter(style: .pretty, capacity: entries.count + 8 * sorted.count + 4096)
    out.beginObject()
    out.key("log")
    out.beginObject()
    out.member("version", "1.2")
    out.key("creator")
    out.beginObject()
    out.member("name", "apx")
    out.member("version", creatorVersion)
    out.endObject()
    out.key("entries")
    out.beginArray()
    assert(out.nesting == Self.entryDepth)
    for entry in sorted { out.text(entries.chunks[entry.element.chunk][entry.element.range]) }
    out.endArray()
    for member in members {
      out.key(member.key)
      out.value(member.value)
    }
    out.endObject()
    out.endObject()
    out.endLine()
    return out.bytes
  }

  /// Writes the archive to `path` (replacing it).
  /// - Throws: `.internalFailure` when the file cannot be written.
  public func write(to path: String, creatorVersion: String) throws(APXError) {
    do {
      // The text is written from its own buffer, not copied into a `Data` first.
      try json(creatorVersion: creatorVersion).withUnsafeBytes { text in
        let data =
          text.baseAddress.map {
            Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: text.count, deallocator: .none)
          } ?? Data()
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
      }
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
