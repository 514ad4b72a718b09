/// Parses the jq-style path syntax described on `JSONPath`.
struct JSONPathParser {
  private let text: String
  private let scalars: [Unicode.Scalar]
  private let allowsDashInNames: Bool
  private let columnOffset: Int
  private var index = 0

  init(text: String, allowsDashInNames: Bool, columnOffset: Int = 0) {
    self.text = text
    self.scalars = Array(text.unicodeScalars)
    self.allowsDashInNames = allowsDashInNames
    self.columnOffset = columnOffset
  }

  /// True for names that need no quoting: `[A-Za-z_][A-Za-z0-9_]*`.
  static func isPlainIdentifier(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, isNameStart(first) else { return false }
    return name.unicodeScalars.allSatisfy { isNameStart($0) || ("0"..."9").contains($0) }
  }

  private static func isNameStart(_ c: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_"
  }

  private func isNameChar(_ c: Unicode.Scalar) -> Bool {
    Self.isNameStart(c) || ("0"..."9").contains(c) || (allowsDashInNames && c == "-")
  }

  private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private func describeCurrent() -> String {
    guard let c = current else { return "end of path" }
    if c == " " { return "a space" }
    if c.properties.isWhitespace || c.value < 0x20 { return "U+\(String(c.value, radix: 16, uppercase: true))" }
    return "'\(c)'"
  }

  private func error(_ expected: String, at column: Int? = nil, hint: String? = nil) -> APXError {
    let col = (column ?? index + 1) + columnOffset
    return APXError(
      .usage,
      "invalid path \(JSONValue.string(text).compactJSON): unexpected \(describeCurrent()) at column \(col), expected \(expected)",
      hint: hint ?? "paths look like .items[0].id, .data[].name, .[\"key.with.dots\"] or .items[1:3]",
      location: SourceLocation(line: 1, column: col))
  }

  mutating func parse() throws(APXError) -> [JSONPathStep] {
    skipSpaces()
    var steps: [JSONPathStep] = []
    // In templates the path follows a namespace: `steps["upload-csv"]`.
    if allowsDashInNames && current == "[" {
      return try parseSteps(steps)
    }
    guard current == "." else {
      throw error("'.' at the start of the path")
    }
    index += 1
    // `.` alone, or `.` followed directly by a name, quote or bracket.
    if let c = current, c != "?" && !c.properties.isWhitespace {
      if c == "." {
        throw error(
          "a key name, '[' or '\"' after '.'", hint: "'..' (recursive descent) is not supported; name the keys")
      }
      steps.append(try parseDotStep())
    }
    return try parseSteps(steps)
  }

  /// The steps after the first one.
  private mutating func parseSteps(_ initial: [JSONPathStep]) throws(APXError) -> [JSONPathStep] {
    var steps = initial
    while let c = current {
      try checkStepCount(steps)
      switch c {
      case ".":
        index += 1
        steps.append(try parseDotStep())
      case "[":
        steps.append(try parseBracket())
      case "?":
        index += 1
        if !steps.isEmpty { steps[steps.count - 1].optional = true }
      default:
        if c.properties.isWhitespace {
          skipSpaces()
          guard current == nil else { throw error("end of path (spaces are allowed only around the path)") }
        } else {
          throw error("'.', '[', '?' or end of path")
        }
      }
    }
    try checkStepCount(steps)
    return steps
  }

  /// A path of 5,000 steps once overflowed the stack (evaluation recursed per step):
  /// longer than any document can be deep, it is refused with a message.
  private func checkStepCount(_ steps: [JSONPathStep]) throws(APXError) {
    guard steps.count <= JSONPath.maxSteps else {
      throw APXError(
        .usage, "invalid path: more than \(JSONPath.maxSteps) steps",
        hint: "no JSON document apx reads is nested deeper than \(JSONParser.maxDepth) levels; shorten the path",
        location: SourceLocation(line: 1, column: index + 1 + columnOffset))
    }
  }

  private mutating func skipSpaces() {
    while let c = current, c.properties.isWhitespace { index += 1 }
  }

  /// After a '.': a name, a quoted key or a bracket.
  private mutating func parseDotStep() throws(APXError) -> JSONPathStep {
    guard let c = current else { throw error("a key name, '[' or '\"' after '.'") }
    if c == "[" { return try parseBracket() }
    if c == "\"" { return JSONPathStep(.key(try parseQuoted())) }
    guard Self.isNameStart(c) else {
      let hint =
        ("0"..."9").contains(c)
        ? "index arrays with brackets (.items[0]); quote keys that start with a digit (.[\"\(c)\"])"
        : "quote keys with other characters: .[\"key-with-dashes\"] or .\"key name\""
      throw error("a key name, '[' or '\"' after '.'", hint: hint)
    }
    let start = index
    while let c = current, isNameChar(c) { index += 1 }
    var name = String.UnicodeScalarView()
    name.append(contentsOf: scalars[start..<index])
    return JSONPathStep(.key(String(name)))
  }

  /// A JSON string literal starting at the current '"'.
  private mutating func parseQuoted() throws(APXError) -> String {
    let startColumn = index + 1
    var j = index + 1
    while j < scalars.count && scalars[j] != "\"" {
      j += scalars[j] == "\\" ? 2 : 1
    }
    guard j < scalars.count else {
      index = scalars.count
      throw error("a closing '\"' for the key that starts at column \(startColumn + columnOffset)")
    }
    var literal = String.UnicodeScalarView()
    literal.append(contentsOf: scalars[index...j])
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(String(literal))
    } catch {
      throw self.error("a valid JSON string (\(error.message))", at: startColumn)
    }
    guard case .string(let key) = parsed else { throw error("a quoted key", at: startColumn) }
    index = j + 1
    return key
  }

  /// `[]`, `["key"]`, `[n]`, `[from:to]`.
  private mutating func parseBracket() throws(APXError) -> JSONPathStep {
    index += 1  // '['
    skipSpaces()
    if current == "]" {
      index += 1
      return JSONPathStep(.iterate)
    }
    if current == "\"" {
      let key = try parseQuoted()
      skipSpaces()
      try expectClosingBracket()
      return JSONPathStep(.key(key))
    }
    let from = try parseInteger()
    skipSpaces()
    if current == ":" {
      index += 1
      skipSpaces()
      let to = try parseInteger()
      skipSpaces()
      try expectClosingBracket()
      return JSONPathStep(.slice(from: from, to: to))
    }
    guard let from else {
      throw error("']', a quoted key, an index or a slice like [1:3] inside '[ ]'")
    }
    try expectClosingBracket()
    return JSONPathStep(.index(from))
  }

  private mutating func expectClosingBracket() throws(APXError) {
    guard current == "]" else { throw error("']'") }
    index += 1
  }

  /// An optional integer (`-2`, `10`); nil when there is none here.
  private mutating func parseInteger() throws(APXError) -> Int? {
    let start = index
    var negative = false
    if current == "-" {
      negative = true
      index += 1
    }
    var value = 0
    var digits = 0
    while let c = current, ("0"..."9").contains(c) {
      let (m, o1) = value.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(Int(c.value - 0x30))
      guard !o1 && !o2 else { throw error("a smaller index", at: start + 1) }
      value = s
      digits += 1
      index += 1
    }
    if digits == 0 {
      if negative { throw error("a digit after '-'") }
      return nil
    }
    return negative ? -value : value
  }
}
