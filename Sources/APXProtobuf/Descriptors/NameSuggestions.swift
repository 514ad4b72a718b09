/// "Did you mean" help for unknown names: the closest candidates by edit
/// distance, and a bounded listing of all valid names.
enum NameSuggestions {
  /// Up to `limit` candidates close to `name` (case-insensitive edit distance), best first.
  static func closest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
    let target = Array(name.lowercased().utf8)
    var scored: [(Int, String)] = []
    for c in candidates {
      let lower = c.lowercased()
      let d = distance(target, Array(lower.utf8))
      let threshold = max(2, target.count / 3)
      if d <= threshold || lower.hasSuffix("." + name.lowercased())
        || (!name.isEmpty && lower.contains(name.lowercased()))
      {
        scored.append((d, c))
      }
    }
    scored.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    var seen = Set<String>()
    return scored.map(\.1).filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
  }

  /// A hint naming the closest match(es) and the valid names (at most `maxListed`).
  static func hint(for name: String, in candidates: [String], kind: String, maxListed: Int = 30) -> String {
    let sorted = candidates.sorted()
    var parts: [String] = []
    let close = closest(to: name, in: sorted)
    if !close.isEmpty {
      parts.append("did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?")
    }
    if sorted.isEmpty {
      parts.append("there are no \(kind)s")
    } else {
      let listed = sorted.prefix(maxListed).joined(separator: ", ")
      let more = sorted.count > maxListed ? ", ... (\(sorted.count - maxListed) more)" : ""
      parts.append("valid \(kind)s: \(listed)\(more)")
    }
    return parts.joined(separator: " ")
  }

  /// Levenshtein distance over bytes.
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      cur[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      }
      swap(&prev, &cur)
    }
    return prev[b.count]
  }
}
