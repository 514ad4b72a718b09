/// Evaluates `expect` checks and `if`/`until` conditions against values.
/// Pure: the caller passes the value a path subject looks into and a resolver
/// for template subjects (`TemplateScope.resolve` or the runner's scope).
public enum RecipeCheckEvaluator {
  /// The outcome of one check.
  public struct Outcome: Sendable, Hashable {
    public var passed: Bool
    /// The value the check looked at (null when missing).
    public var actual: JSONValue
    /// Why it failed, when it did: `.body.status is "failed", expected "complete"`.
    public var failure: String?
  }

  /// Runs `check` on `value` (for path subjects).
  /// - Throws: `APXError` when a template in the check cannot be resolved.
  public static func evaluate(
    _ check: RecipeCheck, on value: JSONValue, resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> Outcome {
    let actual: JSONValue?
    switch check.subject {
    case .path(let path):
      actual = (try? path.selectValue(in: value)) ?? nil
    case .template(let template):
      // A template subject that does not resolve counts as missing, so `exists: false` can test for it.
      actual = try? template.render(resolve: resolve)
    }
    let present = actual.map { $0 != .null } ?? false
    let shown = actual ?? .null
    func fail(_ why: String) -> Outcome {
      Outcome(passed: false, actual: shown, failure: "\(check.subject.text) \(why)")
    }
    if let exists = check.exists, exists != present {
      return fail(exists ? "does not exist" : "exists (\(shown.compactJSON))")
    }
    if let equals = check.equals {
      let expected = try Template.renderStrings(in: equals, resolve: resolve)
      if !Self.equal(shown, expected) {
        return fail("is \(shown.compactJSON), expected \(expected.compactJSON)")
      }
    }
    if let oneOf = check.oneOf, !oneOf.contains(where: { Self.equal(shown, $0) }) {
      return fail("is \(shown.compactJSON), expected one of \(JSONValue.array(oneOf).compactJSON)")
    }
    if let pattern = check.matches {
      let text: String
      switch shown {
      case .string(let s): text = s
      case .null: return fail("does not exist, expected text matching /\(pattern)/")
      default: text = shown.compactJSON
      }
      if text.unicodeScalars.count > RecipeRegex.maxTextLength {
        return fail("is longer than \(RecipeRegex.maxTextLength) characters, the most a matches check reads")
      }
      if !RecipeRegex.matches(pattern, text) {
        return fail("is \(shown.compactJSON), expected a match of /\(pattern)/")
      }
    }
    if check.less != nil || check.greater != nil {
      guard let d = Self.number(shown) else { return fail("is \(shown.compactJSON), expected a number") }
      if let less = check.less, !(d < less) {
        return fail("is \(shown.compactJSON), expected < \(RecipeNumber.text(less))")
      }
      if let greater = check.greater, !(d > greater) {
        return fail("is \(shown.compactJSON), expected > \(RecipeNumber.text(greater))")
      }
    }
    if check.exists == nil, check.equals == nil, check.oneOf == nil, check.matches == nil, check.less == nil,
      check.greater == nil, !isTruthy(shown)
    {
      return fail("is \(shown.compactJSON), expected a truthy value")
    }
    return Outcome(passed: true, actual: shown, failure: nil)
  }

  /// Whether `condition` holds; path subjects look into `value`.
  public static func holds(
    _ condition: RecipeCondition, on value: JSONValue, resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> Bool {
    switch condition {
    case .truthy(let template):
      return isTruthy(try template.render(resolve: resolve))
    case .check(let check):
      return try evaluate(check, on: value, resolve: resolve).passed
    }
  }

  /// Truthiness: null, false, 0, "", "false", "0", [] and {} are false; everything else true.
  public static func isTruthy(_ value: JSONValue) -> Bool {
    switch value {
    case .null: return false
    case .bool(let b): return b
    case .number(let n): return (Double(n) ?? 0) != 0
    case .string(let s): return !(s.isEmpty || s == "false" || s == "0")
    case .array(let a): return !a.isEmpty
    case .object(let m): return !m.isEmpty
    }
  }

  /// Equality that treats numbers by value (`1.0` equals `1`) and a number's text as equal to the number.
  public static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if a == b { return true }
    switch (a, b) {
    case (.number(let x), .number(let y)): return Double(x) == Double(y)
    case (.number(let x), .string(let y)), (.string(let y), .number(let x)):
      return Double(x) != nil && Double(x) == Double(y)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && equal($0.value, $1.value) }
    default: return false
    }
  }

  static func number(_ value: JSONValue) -> Double? {
    switch value {
    case .number(let n): return Double(n)
    case .string(let s): return Double(s)
    default: return nil
    }
  }
}

/// Regular expressions of `matches` checks: `LinearRegex`, which runs in
/// linear time, so a check ends within its step's deadline whatever the pattern.
public enum RecipeRegex {
  /// The longest text a `matches` check reads (1 MiB of Unicode scalars).
  public static let maxTextLength = 1 << 20

  /// Why `pattern` does not compile, or nil when it does.
  public static func problem(in pattern: String) -> String? {
    do {
      _ = try LinearRegex(pattern)
      return nil
    } catch {
      return error.description
    }
  }

  /// True when `pattern` matches somewhere in `text`; an invalid pattern matches nothing.
  public static func matches(_ pattern: String, _ text: String) -> Bool {
    guard let regex = try? LinearRegex(pattern) else { return false }
    return regex.matches(in: text)
  }
}
