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
    if check.predicates.isEmpty, !isTruthy(shown) {
      return Outcome(
        passed: false, actual: shown, failure: "\(check.subject.text) is \(shown.compactJSON), expected a truthy value")
    }
    // Presence first: a missing value is reported as missing, whatever else the check asks.
    let ordered = check.predicates.filter(\.isPresence) + check.predicates.filter { !$0.isPresence }
    for predicate in ordered {
      if let why = try failure(of: predicate, shown: shown, present: present, resolve: resolve) {
        return Outcome(passed: false, actual: shown, failure: "\(check.subject.text) \(why)")
      }
    }
    return Outcome(passed: true, actual: shown, failure: nil)
  }

  /// Why `shown` fails `predicate` (`is 3, expected > 5`), or nil when it passes.
  static func failure(
    of predicate: RecipePredicate, shown: JSONValue, present: Bool,
    resolve: (TemplateReference) throws(APXError) -> JSONValue?
  ) throws(APXError) -> String? {
    switch predicate {
    case .exists:
      return present ? nil : "does not exist"
    case .missing:
      return present ? "exists (\(shown.compactJSON))" : nil
    case .equals(let template):
      let expected = try Template.renderStrings(in: template, resolve: resolve)
      return Self.equal(shown, expected) ? nil : "is \(shown.compactJSON), expected \(expected.compactJSON)"
    case .oneOf(let values):
      return values.contains(where: { Self.equal(shown, $0) })
        ? nil : "is \(shown.compactJSON), expected one of \(JSONValue.array(values).compactJSON)"
    case .matches(let pattern):
      let text: String
      switch shown {
      case .string(let s): text = s
      case .null: return "does not exist, expected text matching /\(pattern)/"
      default: text = shown.compactJSON
      }
      if text.unicodeScalars.count > RecipeRegex.maxTextLength {
        return "is longer than \(RecipeRegex.maxTextLength) characters, the most a matches check reads"
      }
      return RecipeRegex.matches(pattern, text) ? nil : "is \(shown.compactJSON), expected a match of /\(pattern)/"
    case .less(let bound):
      guard let d = Self.number(shown) else { return "is \(shown.compactJSON), expected a number" }
      return d < bound ? nil : "is \(shown.compactJSON), expected < \(RecipeNumber.text(bound))"
    case .greater(let bound):
      guard let d = Self.number(shown) else { return "is \(shown.compactJSON), expected a number" }
      return d > bound ? nil : "is \(shown.compactJSON), expected > \(RecipeNumber.text(bound))"
    }
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
