/// The key of a nested request item, in HTTPie 3's nested-JSON syntax: `user[name]=Ann`,
/// `user[tags][]=a` (append), `points[0]:=1` (index), `[]:=1` (a top-level array).
///
/// The root is the text before the first `[`; each `[...]` after it is one step: empty
/// appends, an integer is an index, anything else a key. `\[`, `\]` and `\\` keep a bracket
/// or backslash in a key, and `[\1]` makes a key of a number. A key without brackets is no
/// nested key at all (`RequestItem` gives it as a plain name).
public struct NestedPath: Sendable, Hashable {
  /// One step into the value.
  public enum Step: Sendable, Hashable {
    case key(String)
    case index(Int)
    case append
  }

  /// One character of a key as `RequestItem` scanned it.
  struct Char: Sendable {
    var char: Character
    /// Written with a backslash before it (`\[`): never a bracket of the syntax.
    var escaped: Bool
    /// Where it starts in the key as typed, in Characters.
    var offset: Int
  }

  /// The steps, the root key first; a top-level array's item starts with `.index` or `.append`.
  public var steps: [Step]
  /// Each step's characters in `source`, brackets included, for the caret under an error.
  public var spans: [Range<Int>]
  /// The key as typed, escapes included.
  public var source: String
  /// The key with its escapes removed (`page[size]`): a parameter of exactly this name is bound
  /// as it is, not by parts.
  public var flatName: String

  /// The largest index accepted: `a[N]` sends N nulls before the value.
  public static let maxIndex = 10_000

  /// The root parameter name; nil for a top-level array (`[]:=1`).
  public var root: String? {
    if case .key(let key) = steps.first { key } else { nil }
  }

  /// `steps` rendered as a bracket key after `root`: `metadata[foo]`, `expand[]`, `items[0][price]`
  /// (what form bodies send, which have no nesting of their own).
  public func bracketKey(root: String) -> String {
    root + steps.dropFirst(self.root == nil ? 0 : 1).map { "[" + Self.text($0) + "]" }.joined()
  }

  /// The path up to (not including) step `count`, as typed without escapes: `user[tags]`; the
  /// empty prefix of a top-level item is "the body".
  func prefix(_ count: Int) -> String {
    guard count > 0 else { return "the body" }
    var out = ""
    for (i, step) in steps.prefix(count).enumerated() {
      if i == 0, case .key(let key) = step { out = key } else { out += "[" + Self.text(step) + "]" }
    }
    return out
  }

  static func text(_ step: Step) -> String {
    switch step {
    case .key(let key): key
    case .index(let n): String(n)
    case .append: ""
    }
  }

  /// Parses the scanned characters of a key that holds an unescaped bracket.
  init(parsing chars: [Char], source: String) throws(APXError) {
    self.source = source
    flatName = String(chars.map(\.char))
    steps = []
    spans = []
    func isOpen(_ c: Char) -> Bool { c.char == "[" && !c.escaped }
    func isClose(_ c: Char) -> Bool { c.char == "]" && !c.escaped }
    func end(_ i: Int) -> Int { i < chars.count ? chars[i].offset : source.count }
    var i = 0
    var root = ""
    while i < chars.count, !isOpen(chars[i]) {
      if isClose(chars[i]) { throw Self.syntax("a ']' with no '[' before it", source, at: end(i)..<end(i + 1)) }
      root.append(chars[i].char)
      i += 1
    }
    if !root.isEmpty {
      steps.append(.key(root))
      spans.append(0..<end(i))
    }
    while i < chars.count {
      guard isOpen(chars[i]) else {
        throw Self.syntax("text after ']' (each step is [key], [index] or [])", source, at: end(i)..<end(i + 1))
      }
      let start = i
      i += 1
      var segment: [Char] = []
      while i < chars.count, !isClose(chars[i]) {
        if isOpen(chars[i]) { throw Self.syntax("a '[' inside [...]", source, at: end(i)..<end(i + 1)) }
        segment.append(chars[i])
        i += 1
      }
      guard i < chars.count else {
        throw Self.syntax("a '[' that is never closed with ']'", source, at: end(start)..<end(i))
      }
      i += 1
      let span = end(start)..<end(i)
      steps.append(try Self.step(segment, source: source, span: span))
      spans.append(span)
    }
  }

  /// What one `[...]` means: empty appends, digits index, `\` and digits is a key, else a key.
  static func step(_ segment: [Char], source: String, span: Range<Int>) throws(APXError) -> Step {
    if segment.isEmpty { return .append }
    func digits(_ chars: ArraySlice<Char>) -> Bool {
      !chars.isEmpty && chars.allSatisfy { !$0.escaped && $0.char.isASCII && $0.char.isNumber }
    }
    let text = String(segment.map(\.char))
    if digits(segment[...]) {
      guard let n = Int(text), n <= maxIndex else {
        throw syntax(
          "the index \(text) is above \(maxIndex) (it would send that many nulls)", source, at: span,
          hint: "write [\\\(text)] for the key \"\(text)\"")
      }
      return .index(n)
    }
    if segment[0].char == "-", !segment[0].escaped, digits(segment.dropFirst()) {
      throw syntax(
        "a negative index (\(text)): an index counts from 0", source, at: span,
        hint: "write [\\\(text)] for the key \"\(text)\"")
    }
    if segment[0].char == "\\", !segment[0].escaped, digits(segment.dropFirst()) {
      return .key(String(text.dropFirst()))
    }
    return .key(text)
  }

  static let hint =
    "nested items: name[key]=value, name[]=value (append), name[0]:=json (index), []:=json (a top-level array); "
    + "\\[ and \\] keep a bracket in a name"

  static func syntax(_ what: String, _ source: String, at span: Range<Int>, hint: String? = nil) -> APXError {
    APXError(
      .usage, "the request item key \"\(source)\" has \(what)", hint: hint ?? Self.hint,
      cause: caret(source, span))
  }

  /// The key and a caret line under `span`, for `cause:`: `APXError.description` writes
  /// "  cause: " (9 columns) before the first line, so the caret line is indented to match.
  static func caret(_ source: String, _ span: Range<Int>) -> String {
    let lower = min(span.lowerBound, source.count)
    return source + "\n" + String(repeating: " ", count: 9 + lower)
      + String(repeating: "^", count: max(1, min(span.upperBound, source.count) - lower))
  }
}
