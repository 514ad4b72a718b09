/// The regular expressions of recipe `matches` checks, matched in time linear
/// in the text (a Pike VM over Unicode scalars, without captures).
///
/// Written by hand because Swift's `Regex` backtracks: `^(a+)+$` against 30
/// characters ran for ever and could be neither timed out nor interrupted,
/// and no linear-time engine is among the available packages.
///
/// Syntax (a common subset): literals; `.` (not a newline); classes `[a-z_]`,
/// `[^0-9]`; `\d \w \s \D \W \S`; `\b \B`; anchors `^ $ \A \z`; groups `( )`,
/// `(?: )`, `(?<name> )`; alternation `|`; quantifiers `* + ? {n} {n,} {n,m}`
/// (a lazy `?` after one is accepted and changes nothing, since only whether
/// there is a match counts); escapes `\t \n \r \f \v \0 \xHH \u{H...}` and
/// `\` before punctuation; `(?i)` at the start for case-insensitive matching.
/// Back-references and look-around, which need backtracking, are rejected.
public struct LinearRegex: Sendable {
  /// The longest pattern accepted, in Unicode scalars.
  public static let maxPatternLength = 2048
  /// The most VM instructions a pattern may compile to (counted repeats expand).
  public static let maxProgramSize = 10_000
  /// The deepest group nesting accepted (the parser recurses per group).
  public static let maxNesting = 64

  let program: [RegexInstruction]
  let sets: [RegexScalarSet]
  let caseInsensitive: Bool

  /// Compiles `pattern`.
  /// - Throws: `LinearRegexError` saying what is wrong and at which column.
  public init(_ pattern: String) throws(LinearRegexError) {
    let scalars = Array(pattern.unicodeScalars)
    guard scalars.count <= Self.maxPatternLength else {
      throw LinearRegexError(message: "the pattern is longer than \(Self.maxPatternLength) characters", column: 1)
    }
    var parser = RegexParser(scalars: scalars)
    let tree = try parser.parse()
    var compiler = RegexCompiler()
    try compiler.emit(tree)
    compiler.program.append(.match)
    guard compiler.program.count <= Self.maxProgramSize else {
      throw LinearRegexError(message: "the pattern is too large once its repeats are expanded", column: 1)
    }
    program = compiler.program
    sets = compiler.sets
    caseInsensitive = parser.caseInsensitive
  }

  /// True when the pattern matches somewhere in `text`. Time is at most
  /// proportional to the text's length times the program's size.
  public func matches(in text: String) -> Bool {
    let input = Array(text.unicodeScalars)
    var current: [Int] = []
    var next: [Int] = []
    // A generation stamp per instruction: "already in this step's list".
    var seen = [Int](repeating: -1, count: program.count)
    var stack: [Int] = []
    var generation = 0

    /// Adds `pc` and everything reachable from it without consuming input.
    func addClosure(_ pc: Int, at position: Int, into list: inout [Int]) -> Bool {
      stack.append(pc)
      while let p = stack.popLast() {
        guard seen[p] != generation else { continue }
        seen[p] = generation
        switch program[p] {
        case .match:
          stack.removeAll()
          return true
        case .jump(let target):
          stack.append(target)
        case .split(let a, let b):
          stack.append(b)
          stack.append(a)
        case .assert(let assertion):
          if holds(assertion, at: position, in: input) { stack.append(p + 1) }
        case .scalar:
          list.append(p)
        }
      }
      return false
    }

    var position = 0
    while true {
      // Unanchored search: a new thread may start at every position.
      if addClosure(0, at: position, into: &current) { return true }
      guard position < input.count else { return false }
      let c = input[position]
      generation += 1
      next.removeAll(keepingCapacity: true)
      for pc in current {
        guard case .scalar(let setIndex) = program[pc], accepts(setIndex, c) else { continue }
        if addClosure(pc + 1, at: position + 1, into: &next) { return true }
      }
      swap(&current, &next)
      position += 1
      if current.isEmpty, program.first.map({ if case .assert(.textStart) = $0 { true } else { false } }) == true {
        return false  // `\A`/`^`-anchored and every thread died
      }
    }
  }

  private func accepts(_ setIndex: Int, _ c: Unicode.Scalar) -> Bool {
    let set = sets[setIndex]
    if set.contains(c) { return true }
    guard caseInsensitive else { return false }
    let lower = c.properties.lowercaseMapping.unicodeScalars
    let upper = c.properties.uppercaseMapping.unicodeScalars
    if lower.count == 1, let l = lower.first, l != c, set.contains(l) { return true }
    if upper.count == 1, let u = upper.first, u != c, set.contains(u) { return true }
    return false
  }

  private func holds(_ assertion: RegexAssertion, at i: Int, in input: [Unicode.Scalar]) -> Bool {
    switch assertion {
    case .textStart: return i == 0
    case .textEnd: return i == input.count
    case .lineEnd: return i == input.count || (i == input.count - 1 && input[i] == "\n")
    case .wordBoundary, .notWordBoundary:
      let before = i > 0 && RegexScalarSet.isWord(input[i - 1])
      let after = i < input.count && RegexScalarSet.isWord(input[i])
      return (before != after) == (assertion == .wordBoundary)
    }
  }
}

/// Why a pattern was rejected, and where.
public struct LinearRegexError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  /// 1-based column in the pattern.
  public var column: Int
  public var description: String { "\(message) (column \(column))" }
}

enum RegexAssertion: Sendable, Hashable {
  case textStart, textEnd, lineEnd, wordBoundary, notWordBoundary
}

enum RegexInstruction: Sendable, Hashable {
  case scalar(Int)
  case split(Int, Int)
  case jump(Int)
  case assert(RegexAssertion)
  case match
}

/// A set of Unicode scalars: ranges, optionally negated.
struct RegexScalarSet: Sendable, Hashable {
  var ranges: [ClosedRange<UInt32>] = []
  var negated = false

  func contains(_ c: Unicode.Scalar) -> Bool {
    ranges.contains { $0.contains(c.value) } != negated
  }

  static func isWord(_ c: Unicode.Scalar) -> Bool {
    c == "_" || c.properties.isAlphabetic || c.properties.numericType != nil
  }

  static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
  static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
  static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0x85...0x85, 0xA0...0xA0, 0x2028...0x2029]
  static let anyButNewline = RegexScalarSet(ranges: [0x0A...0x0A], negated: true)

  /// The complement of `ranges` over all scalars (for `\D` inside a class).
  static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    var out: [ClosedRange<UInt32>] = []
    var start: UInt32 = 0
    for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if r.lowerBound > start { out.append(start...(r.lowerBound - 1)) }
      start = max(start, r.upperBound + 1)
    }
    if start <= 0x10FFFF { out.append(start...0x10FFFF) }
    return out
  }
}
