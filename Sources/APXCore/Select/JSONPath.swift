/// A jq-style path into a JSON value, as given to `--select`, to a fallback's
/// `until`, or inside a template reference.
///
/// Supported (a subset of jq): `.` (the whole value), `.a.b`, `."quoted key"`,
/// `.["key with.dots"]`, `.items[0]`, `.items[-1]` (from the end),
/// `.items[]` (every element or member value), `.items[1:3]`, `.items[2:]`,
/// `.items[:-1]` (slices of arrays and strings), and a trailing `?` on any step
/// to drop errors (`.a.b?`), e.g. `.data.items[].id`.
///
/// Like jq, a missing key or an out-of-range index yields `null`, and indexing
/// `null` yields `null`; indexing a value of the wrong type is an error
/// (`cannot index string with "b"`).
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// The parsed steps, outermost first. Empty for `.`.
  public var steps: [JSONPathStep]
  /// The text the path was parsed from.
  public var text: String

  /// The most steps a path may have: no parsed document is deeper than
  /// `JSONParser.maxDepth`, so longer paths can only waste time and memory.
  public static let maxSteps = 1024

  /// Parses a path. Leading and trailing whitespace is ignored.
  /// - Throws: `APXError` with status `.usage` saying at which column what was expected.
  public init(parsing text: String) throws(APXError) {
    var parser = JSONPathParser(text: text, allowsDashInNames: false)
    self.steps = try parser.parse()
    self.text = text
  }

  /// Makes a path from steps (rendered back to jq syntax for `text`).
  public init(steps: [JSONPathStep]) {
    self.steps = steps
    let rendered = JSONPathStep.render(steps)
    // `render` gives a suffix (`["odd key"]`); a whole path starts with '.' (found by ParserFuzzTests).
    self.text = rendered.hasPrefix("[") ? "." + rendered : rendered
  }

  /// Parses with template rules: names may contain `-` (`steps.upload-csv.body`).
  init(parsingTemplatePath text: String, columnOffset: Int) throws(APXError) {
    var parser = JSONPathParser(text: text, allowsDashInNames: true, columnOffset: columnOffset)
    self.steps = try parser.parse()
    self.text = text
  }

  /// The path as written.
  public var description: String { text }

  /// True when the path contains `[]` and so can yield any number of results.
  public var iterates: Bool {
    steps.contains { if case .iterate = $0.kind { return true } else { return false } }
  }

  /// Every value the path selects from `value`, in document order.
  /// - Throws: `APXError` (`.usage`) when a step does not fit the value's type,
  ///   e.g. `.a.b` where `.a` is a string, unless that step ends with `?`.
  public func select(in value: JSONValue) throws(APXError) -> [JSONValue] {
    var evaluator = JSONPathEvaluator(path: self, strict: false)
    return try evaluator.run(value)
  }

  /// The single value the path selects, or `nil` when it selects none; several
  /// results are returned as an array.
  public func selectValue(in value: JSONValue) throws(APXError) -> JSONValue? {
    if let direct = walkingKeys(in: value) { return direct }
    let results = try select(in: value)
    if iterates { return .array(results) }
    return results.first
  }

  /// The value at a path of plain keys (`.a.b`) through objects, as the evaluator would give it
  /// (the first member of that name; a missing key or `null` gives `null`), or nil when the path
  /// or the value needs the evaluator (an index, iteration, a slice, `?`, or an error to report).
  /// Why: a stream's progress is read from every message, and the evaluator's result arrays
  /// cost a fifth of a 100,000-message gRPC stream's time.
  private func walkingKeys(in value: JSONValue) -> JSONValue? {
    var current = value
    for step in steps {
      guard !step.optional, case .key(let key) = step.kind else { return nil }
      switch current {
      case .object(let members): current = members.first(where: { $0.key == key })?.value ?? .null
      case .null: current = .null
      default: return nil
      }
    }
    return current
  }

  /// Like `select(in:)`, but a missing key, an out-of-range index or indexing
  /// `null` is an error naming what is missing (for templates, where a typo
  /// must not silently become `null`).
  public func selectStrictly(in value: JSONValue) throws(APXError) -> [JSONValue] {
    var evaluator = JSONPathEvaluator(path: self, strict: true)
    return try evaluator.run(value)
  }
}

/// One step of a `JSONPath`.
public struct JSONPathStep: Sendable, Hashable {
  /// What the step does.
  public enum Kind: Sendable, Hashable {
    /// `.name`, `."name"`, `.["name"]`: an object member (the first one of that name).
    case key(String)
    /// `[n]`: an array element; negative counts from the end.
    case index(Int)
    /// `[]`: every element of an array or every member value of an object.
    case iterate
    /// `[from:to]`: a sub-array or substring; either bound may be omitted or negative.
    case slice(from: Int?, to: Int?)
  }

  /// What the step does.
  public var kind: Kind
  /// `?` after the step: errors at this step produce no result instead of failing.
  public var optional: Bool

  /// Makes a step.
  public init(_ kind: Kind, optional: Bool = false) {
    self.kind = kind
    self.optional = optional
  }

  /// Renders steps in jq syntax (`.a["b c"][0][]`); no steps render as `.`.
  public static func render(_ steps: [JSONPathStep]) -> String {
    if steps.isEmpty { return "." }
    var out = ""
    for step in steps {
      switch step.kind {
      case .key(let k):
        if JSONPathParser.isPlainIdentifier(k) {
          out += "." + k
        } else {
          out += "[" + JSONValue.string(k).compactJSON + "]"
        }
      case .index(let i): out += "[\(i)]"
      case .iterate: out += "[]"
      case .slice(let from, let to): out += "[\(from.map(String.init) ?? ""):\(to.map(String.init) ?? "")]"
      }
      if step.optional { out += "?" }
    }
    return out
  }
}
