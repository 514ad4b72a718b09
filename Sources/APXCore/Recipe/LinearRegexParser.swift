/// The syntax tree of a `LinearRegex` pattern.
indirect enum RegexNode: Sendable {
  case empty
  case set(RegexScalarSet)
  case concat([RegexNode])
  case alternation([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)
  case assertion(RegexAssertion)
}

/// Parses a pattern into a `RegexNode` (recursive descent; recursion only per
/// group, bounded by `LinearRegex.maxNesting`).
struct RegexParser {
  let scalars: [Unicode.Scalar]
  var index = 0
  var depth = 0
  private(set) var caseInsensitive = false

  init(scalars: [Unicode.Scalar]) {
    self.scalars = scalars
  }

  private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private func error(_ message: String, at column: Int? = nil) -> LinearRegexError {
    LinearRegexError(message: message, column: column ?? index + 1)
  }

  mutating func parse() throws(LinearRegexError) -> RegexNode {
    if scalars.starts(with: Array("(?i)".unicodeScalars)) {
      caseInsensitive = true
      index = 4
    }
    let node = try parseAlternation()
    if current == ")" { throw error("unbalanced ')'") }
    return node
  }

  private mutating func parseAlternation() throws(LinearRegexError) -> RegexNode {
    var branches = [try parseConcat()]
    while current == "|" {
      index += 1
      branches.append(try parseConcat())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  private mutating func parseConcat() throws(LinearRegexError) -> RegexNode {
    var items: [RegexNode] = []
    while let c = current, c != "|", c != ")" {
      let start = index
      let atom = try parseAtom()
      items.append(try parseQuantifiers(atom, atomStart: start))
    }
    if items.isEmpty { return .empty }
    return items.count == 1 ? items[0] : .concat(items)
  }

  private mutating func parseQuantifiers(_ atom: RegexNode, atomStart: Int) throws(LinearRegexError) -> RegexNode {
    guard let c = current else { return atom }
    let bounds: (Int, Int?)
    switch c {
    case "*": bounds = (0, nil)
    case "+": bounds = (1, nil)
    case "?": bounds = (0, 1)
    case "{":
      guard let counted = try parseCountedRepeat() else { return atom }
      bounds = counted
    default: return atom
    }
    if c != "{" { index += 1 }
    if case .assertion = atom { throw error("an anchor cannot be repeated", at: atomStart + 1) }
    if current == "?" {
      index += 1  // lazy: the same set of matches
    }
    if let next = current,
      next == "*" || next == "+" || next == "?" || next == "{" && (try? peekCountedRepeat()) == true
    {
      throw error(next == "+" ? "possessive quantifiers are not supported" : "a quantifier cannot follow another")
    }
    return .repetition(atom, min: bounds.0, max: bounds.1)
  }

  /// Whether a counted repeat starts here (consumes nothing).
  private mutating func peekCountedRepeat() throws(LinearRegexError) -> Bool {
    let start = index
    defer { index = start }
    return try parseCountedRepeat() != nil
  }

  /// `{n}`, `{n,}`, `{n,m}`; nil (and no input consumed) when `{` starts a literal.
  private mutating func parseCountedRepeat() throws(LinearRegexError) -> (Int, Int?)? {
    let start = index
    index += 1
    func number(_ p: inout RegexParser) -> Int? {
      var value = 0
      var digits = 0
      while let c = p.current, ("0"..."9").contains(c) {
        value = min(value * 10 + Int(c.value - 0x30), 100_000)
        digits += 1
        p.index += 1
      }
      return digits == 0 ? nil : value
    }
    guard let low = number(&self) else {
      index = start
      return nil
    }
    var high: Int? = low
    if current == "," {
      index += 1
      high = number(&self)
    }
    guard current == "}" else {
      index = start
      return nil
    }
    index += 1
    if let high, high < low { throw error("the repeat {\(low),\(high)} has its bounds reversed", at: start + 1) }
    if low > 1000 || (high ?? 0) > 1000 { throw error("a counted repeat may be at most 1000", at: start + 1) }
    return (low, high)
  }

  private mutating func parseAtom() throws(LinearRegexError) -> RegexNode {
    guard let c = current else { throw error("a pattern ended early") }
    switch c {
    case "(":
      return try parseGroup()
    case "[":
      return .set(try parseClass())
    case ".":
      index += 1
      return .set(RegexScalarSet.anyButNewline)
    case "^":
      index += 1
      return .assertion(.textStart)
    case "$":
      index += 1
      return .assertion(.lineEnd)
    case "\\":
      return try parseEscape(inClass: false).node
    case "*", "+", "?":
      throw error("'\(c)' has nothing to repeat")
    default:
      index += 1
      return .set(RegexScalarSet(ranges: [c.value...c.value]))
    }
  }

  private mutating func parseGroup() throws(LinearRegexError) -> RegexNode {
    let open = index
    index += 1
    if current == "?" {
      let rest = scalars[index...].prefix(3).map(Character.init)
      let head = String(rest)
      if head.hasPrefix("?:") {
        index += 2
      } else if head.hasPrefix("?<"), !head.hasPrefix("?<="), !head.hasPrefix("?<!") {
        index += 2
        while let c = current, c != ">" { index += 1 }
        guard current == ">" else { throw error("a group name without '>'", at: open + 1) }
        index += 1
      } else if head.hasPrefix("?=") || head.hasPrefix("?!") || head.hasPrefix("?<") {
        throw error("look-around is not supported (matches run in linear time)", at: open + 1)
      } else {
        throw error("this group syntax is not supported; use ( ) or (?: )", at: open + 1)
      }
    }
    depth += 1
    guard depth <= LinearRegex.maxNesting else {
      throw error("groups nested deeper than \(LinearRegex.maxNesting) levels", at: open + 1)
    }
    let inner = try parseAlternation()
    depth -= 1
    guard current == ")" else { throw error("a '(' without its ')'", at: open + 1) }
    index += 1
    return inner
  }

  private mutating func parseClass() throws(LinearRegexError) -> RegexScalarSet {
    let open = index
    index += 1
    var set = RegexScalarSet()
    if current == "^" {
      set.negated = true
      index += 1
    }
    var first = true
    while true {
      guard let c = current else { throw error("a '[' without its ']'", at: open + 1) }
      if c == "]" && !first { break }
      first = false
      if c == "[" { throw error("nested classes and class operations are not supported") }
      var low: UInt32
      if c == "\\" {
        let escaped = try parseEscape(inClass: true)
        if let ranges = escaped.classRanges {
          set.ranges += ranges
          continue
        }
        low = escaped.scalar!.value
      } else {
        low = c.value
        index += 1
      }
      if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
        index += 1
        var high: UInt32
        if current == "\\" {
          let escaped = try parseEscape(inClass: true)
          guard let s = escaped.scalar else { throw error("a class shorthand cannot end a range") }
          high = s.value
        } else {
          high = current!.value
          index += 1
        }
        guard low <= high else { throw error("the range in [ ] is reversed") }
        set.ranges.append(low...high)
      } else {
        set.ranges.append(low...low)
      }
    }
    index += 1
    return set
  }

  /// An escape at `\`: a scalar, a class shorthand (`\d`) or an assertion (`\b`).
  private mutating func parseEscape(inClass: Bool) throws(LinearRegexError) -> (
    node: RegexNode, scalar: Unicode.Scalar?, classRanges: [ClosedRange<UInt32>]?
  ) {
    let start = index
    index += 1
    guard let c = current else { throw error("a pattern cannot end with '\\'", at: start + 1) }
    index += 1
    func shorthand(_ ranges: [ClosedRange<UInt32>], negated: Bool) -> (
      RegexNode, Unicode.Scalar?, [ClosedRange<UInt32>]?
    ) {
      let inClassRanges = negated ? RegexScalarSet.complement(ranges) : ranges
      return (.set(RegexScalarSet(ranges: ranges, negated: negated)), nil, inClassRanges)
    }
    func scalar(_ s: Unicode.Scalar) -> (RegexNode, Unicode.Scalar?, [ClosedRange<UInt32>]?) {
      (.set(RegexScalarSet(ranges: [s.value...s.value])), s, nil)
    }
    switch c {
    case "d": return shorthand(RegexScalarSet.digit, negated: false)
    case "D": return shorthand(RegexScalarSet.digit, negated: true)
    case "w": return shorthand(RegexScalarSet.word, negated: false)
    case "W": return shorthand(RegexScalarSet.word, negated: true)
    case "s": return shorthand(RegexScalarSet.space, negated: false)
    case "S": return shorthand(RegexScalarSet.space, negated: true)
    case "t": return scalar("\t")
    case "n": return scalar("\n")
    case "r": return scalar("\r")
    case "f": return scalar("\u{0C}")
    case "v": return scalar("\u{0B}")
    case "0": return scalar("\0")
    case "x", "u":
      return scalar(try parseHexScalar(start: start))
    case "b", "B", "A", "z", "Z":
      if inClass { throw error("\\\(c) cannot be used inside [ ]", at: start + 1) }
      let assertion: RegexAssertion =
        switch c {
        case "b": .wordBoundary
        case "B": .notWordBoundary
        case "A": .textStart
        case "z": .textEnd
        default: .lineEnd
        }
      return (.assertion(assertion), nil, nil)
    case "1"..."9", "k", "g":
      throw error("back-references are not supported (matches run in linear time)", at: start + 1)
    default:
      if c.properties.isAlphabetic || ("0"..."9").contains(c) {
        throw error("unknown escape \\\(c)", at: start + 1)
      }
      return scalar(c)
    }
  }

  /// `\xHH`, `\x{H...}`, `\uHHHH`, `\u{H...}` (the `x`/`u` already read).
  private mutating func parseHexScalar(start: Int) throws(LinearRegexError) -> Unicode.Scalar {
    let braced = current == "{"
    if braced { index += 1 }
    let maxDigits = braced ? 8 : (scalars[index - 1] == "x" ? 2 : 4)
    var value: UInt32 = 0
    var digits = 0
    while digits < maxDigits, let c = current, c.properties.isASCIIHexDigit {
      value = value * 16 + UInt32(Int(String(c), radix: 16) ?? 0)
      digits += 1
      index += 1
    }
    if braced {
      guard current == "}" else { throw error("a '\\x{' or '\\u{' without its '}'", at: start + 1) }
      index += 1
    }
    guard digits > 0, let s = Unicode.Scalar(value) else { throw error("an invalid hexadecimal escape", at: start + 1) }
    return s
  }
}

/// Turns a `RegexNode` into VM instructions.
struct RegexCompiler {
  var program: [RegexInstruction] = []
  var sets: [RegexScalarSet] = []

  mutating func emit(_ node: RegexNode) throws(LinearRegexError) {
    // Checked as it grows, so that {1000}{1000} stops early instead of filling memory.
    guard program.count <= LinearRegex.maxProgramSize else {
      throw LinearRegexError(message: "the pattern is too large once its repeats are expanded", column: 1)
    }
    switch node {
    case .empty:
      return
    case .set(let set):
      sets.append(set)
      program.append(.scalar(sets.count - 1))
    case .assertion(let a):
      program.append(.assert(a))
    case .concat(let items):
      for item in items { try emit(item) }
    case .alternation(let branches):
      // split L1, next; L1: branch; jump end; next: split ...
      var jumps: [Int] = []
      for (i, branch) in branches.enumerated() {
        if i < branches.count - 1 {
          let split = program.count
          program.append(.split(0, 0))
          try emit(branch)
          jumps.append(program.count)
          program.append(.jump(0))
          program[split] = .split(split + 1, program.count)
        } else {
          try emit(branch)
        }
      }
      for j in jumps { program[j] = .jump(program.count) }
    case .repetition(let inner, let min, let max):
      for _ in 0..<min { try emit(inner) }
      if let max {
        // Each optional copy: split into it or past all of them.
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(program.count)
          program.append(.split(0, 0))
          try emit(inner)
        }
        for s in splits { program[s] = .split(s + 1, program.count) }
      } else {
        // L: split body, end; body; jump L
        let loop = program.count
        program.append(.split(0, 0))
        try emit(inner)
        program.append(.jump(loop))
        program[loop] = .split(loop + 1, program.count)
      }
    }
  }
}
