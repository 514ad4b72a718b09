import APXCore

/// "Did you mean" help for unknown names: the closest candidates by edit
/// distance, and a bounded listing of all valid names.
enum NameSuggestions {
  /// Up to `limit` candidates close to `name` (case-insensitive edit distance), best first.
  static func closest(to name: String, in candidates: [String], limit: Int = 3) -> [String] {
    let target = Array(name.lowercased().utf8)
    var scored: [(Int, String)] = []
    for c in candidates {
      let lower = c.lowercased()
      let d = Suggestions.editDistance(target, Array(lower.utf8))
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
}
