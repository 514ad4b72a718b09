public import APXCore
import Synchronization

/// Recorded exchanges answered back by request (`apx mock --replay`).
///
/// A request matches an exchange with the same method, path and query (pairs in any order), and
/// the same body when the recording has one (JSON compared as values, so key order and spacing
/// do not matter). When several exchanges match, successive requests get them in recorded order
/// and the last one repeats, so a job polled until it finishes replays its progress.
public final class HARReplay: Sendable {
  /// What a request gets.
  public enum Answer: Sendable, Hashable {
    /// The recorded exchange that answers it.
    case recorded(HARExchange)
    /// Nothing matched; the recorded request closest to it, when there is one.
    case unmatched(nearest: HARExchange?)
  }

  /// The recorded exchanges, in order.
  public let exchanges: [HARExchange]
  /// How many times each group of identical recorded requests was answered.
  private let served = Mutex<[Int: Int]>([:])

  /// Replays `exchanges`, in their recorded order.
  public init(_ exchanges: [HARExchange]) {
    self.exchanges = exchanges
  }

  /// How many exchanges are recorded.
  public var count: Int { exchanges.count }

  /// The answer to a request; `path` and `query` as `HARReader.pathAndQuery(of:)` gives them.
  public func answer(method: String, path: String, query: [HARExchange.QueryPair], body: [UInt8]) -> Answer {
    let method = method.uppercased()
    let sortedQuery = Self.sorted(query)
    let candidates = exchanges.indices.filter { i in
      let e = exchanges[i]
      return e.method == method && e.path == path && Self.sorted(e.query) == sortedQuery
        && (e.requestBody.map { Self.sameBody($0, body) } ?? true)
    }
    guard let first = candidates.first else {
      return .unmatched(nearest: nearest(method: method, path: path, query: query))
    }
    let turn = served.withLock { counts -> Int in
      defer { counts[first, default: 0] += 1 }
      return counts[first, default: 0]
    }
    return .recorded(exchanges[candidates[min(turn, candidates.count - 1)]])
  }

  /// Starts every sequence of repeated requests again from its first answer.
  public func reset() {
    served.withLock { $0.removeAll() }
  }

  /// The recorded request that differs least from this one: same method first, then the
  /// fewest edits between the request lines.
  private func nearest(method: String, path: String, query: [HARExchange.QueryPair]) -> HARExchange? {
    let line = Array(
      HARExchange(method: method, path: path, query: query, status: 0, headers: [], body: [], source: "").requestLine
        .utf8)
    return exchanges.min { a, b in
      let keyA = (a.method == method ? 0 : 1, Suggestions.editDistance(Array(a.requestLine.utf8), line))
      let keyB = (b.method == method ? 0 : 1, Suggestions.editDistance(Array(b.requestLine.utf8), line))
      return keyA < keyB
    }
  }

  private static func sorted(_ query: [HARExchange.QueryPair]) -> [HARExchange.QueryPair] {
    query.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
  }

  /// Equal bytes, or equal JSON values (members compared by name, in any order).
  static func sameBody(_ recorded: [UInt8], _ sent: [UInt8]) -> Bool {
    if recorded == sent { return true }
    guard let a = try? JSONParser.parse(recorded), let b = try? JSONParser.parse(sent) else { return false }
    return canonical(a) == canonical(b)
  }

  private static func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      .object(members.map { JSONMember($0.key, canonical($0.value)) }.sorted { $0.key < $1.key })
    case .array(let items): .array(items.map(canonical))
    default: value
    }
  }
}
