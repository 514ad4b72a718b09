/// What a parameter's value must satisfy beyond its type and allowed values, as an API
/// description states it (JSON Schema's `minimum`, `maximum`, `minLength`, `maxLength`,
/// `pattern`; `format` is shown by `apx describe` and checked by `apx mock` where it knows it).
/// `apx call` refuses a value that breaks one before sending (exit 2), as it refuses a value
/// outside `enum`; `apx mock` answers 400 to a request that breaks one.
public struct ValueConstraints: Sendable, Hashable {
  /// The JSON Schema format, e.g. `date-time`, `uuid`, `phone-number`.
  public var format: String?
  /// Bounds of a number, inclusive.
  public var minimum: Double?
  public var maximum: Double?
  /// Bounds of a string's length, in characters.
  public var minLength: Int?
  public var maxLength: Int?
  /// A regular expression (the `LinearRegex` subset) the string must contain a match of.
  public private(set) var pattern: String?
  private var regex: LinearRegex?

  public init() {}

  /// No constraint at all.
  public var isEmpty: Bool {
    format == nil && minimum == nil && maximum == nil && minLength == nil && maxLength == nil && pattern == nil
  }

  /// Sets the pattern, compiled once here.
  /// - Throws: `LinearRegexError` when `LinearRegex` cannot read it (look-around, back-references).
  public mutating func setPattern(_ text: String?) throws(LinearRegexError) {
    guard let text else {
      pattern = nil
      regex = nil
      return
    }
    regex = try LinearRegex(text)
    pattern = text
  }

  public static func == (a: ValueConstraints, b: ValueConstraints) -> Bool {
    a.format == b.format && a.minimum == b.minimum && a.maximum == b.maximum && a.minLength == b.minLength
      && a.maxLength == b.maxLength && a.pattern == b.pattern
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(format)
    hasher.combine(minimum)
    hasher.combine(maximum)
    hasher.combine(minLength)
    hasher.combine(maxLength)
    hasher.combine(pattern)
  }

  /// Why `value` breaks a constraint (never quoting it: the value may be a secret), or nil.
  /// Numbers are checked against the bounds, strings against length and pattern; other
  /// values (and a number given as text that is not one) are left to the type check.
  public func problem(_ value: JSONValue) -> String? {
    switch value {
    case .number:
      if let n = value.doubleValue { return problem(number: n) }
      return nil
    case .string(let text):
      return problem(text: text)
    default:
      return nil
    }
  }

  /// `text` as a string value, and as a number when it reads as one and bounds are set.
  public func problem(text: String, isNumber: Bool) -> String? {
    if isNumber, let n = Double(text) { return problem(number: n) }
    return problem(text: text)
  }

  func problem(number n: Double) -> String? {
    if let minimum, n < minimum { return "must be at least \(Self.shown(minimum))" }
    if let maximum, n > maximum { return "must be at most \(Self.shown(maximum))" }
    return nil
  }

  func problem(text: String) -> String? {
    let count = text.count
    if let minLength, count < minLength { return "must be at least \(minLength) characters long" }
    if let maxLength, count > maxLength { return "must be at most \(maxLength) characters long" }
    if let regex, let pattern, !regex.matches(in: text) { return "must match the pattern \(pattern)" }
    return nil
  }

  static func shown(_ n: Double) -> String {
    n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
  }
}
