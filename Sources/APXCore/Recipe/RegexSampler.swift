/// Draws texts that a `LinearRegex` pattern matches, for mocks whose answers must pass a
/// schema's `pattern`: groups, alternation, classes and counted repeats are walked on the
/// pattern's syntax tree with a seeded generator, and each draw is checked by the matcher
/// itself, so anchors and word boundaries the draw could not honour only cost another try.
public struct RegexSampler: Sendable {
  let tree: RegexNode
  let regex: LinearRegex

  /// How often a draw is repeated before `sample` gives up.
  public static let tries = 32

  /// Parses `pattern` as `LinearRegex` does.
  /// - Throws: `LinearRegexError` for what the linear matcher does not read (look-around,
  ///   back-references).
  public init(_ pattern: String) throws(LinearRegexError) {
    regex = try LinearRegex(pattern)
    var parser = RegexParser(scalars: Array(pattern.unicodeScalars))
    tree = try parser.parse()
  }

  /// A text the pattern matches, of `minLength...maxLength` Unicode scalars; nil when no draw
  /// found one (a pattern and bounds that exclude each other, or a rare shape).
  public func sample(_ random: inout SeededRandom, minLength: Int = 0, maxLength: Int = 10_000) -> String? {
    guard minLength <= maxLength else { return nil }
    for attempt in 0..<Self.tries {
      var draw = Draw(random: random, limit: maxLength + 1, stretch: attempt * max(1, minLength / 4 + 1) / 4)
      draw.walk(tree)
      random = draw.random
      let text = String(String.UnicodeScalarView(draw.out))
      if !draw.overflowed, (minLength...maxLength).contains(draw.out.count), regex.matches(in: text) { return text }
    }
    return nil
  }

  /// One draw: the scalars so far, stopped once past `limit`.
  private struct Draw {
    var random: SeededRandom
    let limit: Int
    /// Extra repeats allowed past a minimum, growing with each try so that a `minLength` the
    /// first draws fell short of is reached.
    let stretch: Int
    var out: [Unicode.Scalar] = []
    var overflowed = false

    mutating func walk(_ node: RegexNode) {
      guard !overflowed else { return }
      switch node {
      case .empty, .assertion: return
      case .set(let set):
        out.append(scalar(in: set))
        if out.count > limit { overflowed = true }
      case .concat(let items):
        for item in items { walk(item) }
      case .alternation(let branches):
        walk(branches[Int(random.next() % UInt64(branches.count))])
      case .repetition(let inner, let low, let high):
        let top = high ?? (low + 3 + stretch)
        let count = low + Int(random.next() % UInt64(max(0, top - low) + 1))
        for _ in 0..<count where !overflowed { walk(inner) }
      }
    }

    /// A scalar of `set`: printable ASCII where the set has some, as values in answers read best.
    mutating func scalar(in set: RegexScalarSet) -> Unicode.Scalar {
      for _ in 0..<48 {
        let c = Unicode.Scalar(UInt8(0x21 + random.next() % 94))
        if set.contains(c) { return c }
      }
      if set.negated || set.ranges.isEmpty {
        for value in UInt32(0x20)...0x7E {
          if let c = Unicode.Scalar(value), set.contains(c) { return c }
        }
        for value in UInt32(0xA1)...0x2FF {
          if let c = Unicode.Scalar(value), set.contains(c) { return c }
        }
        return "x"
      }
      for _ in 0..<16 {
        let range = set.ranges[Int(random.next() % UInt64(set.ranges.count))]
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        if let c = Unicode.Scalar(range.lowerBound + UInt32(random.next() % span)) { return c }
      }
      return set.ranges.lazy.compactMap { Unicode.Scalar($0.lowerBound) }.first ?? "x"
    }
  }
}
