/// "Did you mean" suggestions: the candidates closest to a misspelt name.
public enum Suggestions {
  /// Up to `limit` candidates within a small edit distance of `name`, nearest first.
  /// A candidate that contains `name` (or the other way round) also counts as near.
  public static func nearest(to name: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
    let lowered = name.lowercased()
    var scored: [(String, Int)] = []
    var seen: Set<String> = []
    // A name listed twice (a parameter in the path and in the query) is suggested once.
    for candidate in candidates where seen.insert(candidate).inserted {
      let c = candidate.lowercased()
      var distance = editDistance(Array(lowered.unicodeScalars), Array(c.unicodeScalars))
      if !lowered.isEmpty, c.contains(lowered) || lowered.contains(c) { distance = min(distance, 1) }
      let threshold = max(2, min(lowered.count, c.count) / 3)
      if distance <= threshold { scored.append((candidate, distance)) }
    }
    scored.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    return scored.prefix(limit).map(\.0)
  }

  /// A hint sentence: `did you mean "a" or "b"?`, or nil when nothing is near.
  public static func hint(for name: String, in candidates: some Sequence<String>) -> String? {
    let near = nearest(to: name, in: candidates)
    guard !near.isEmpty else { return nil }
    return "did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "?"
  }

  /// Names for a hint, comma-separated: the first `limit`, then how many more, so a registry of
  /// 100,000 endpoints does not make a 1 MB error message: `a, b, c and 99997 more`.
  public static func list(_ names: [String], limit: Int = 20) -> String {
    guard names.count > limit else { return names.joined(separator: ", ") }
    return names.prefix(limit).joined(separator: ", ") + " and \(names.count - limit) more"
  }

  /// The Levenshtein distance between `a` and `b` (insertions, deletions and substitutions
  /// of one element each), with two rolling rows.
  public static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
