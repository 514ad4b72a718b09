import APXCore

/// Checks a value against a JSON Schema, as far as a mock needs to refuse a request: types,
/// `required`, `enum`/`const`, numeric bounds (exclusive ones and `multipleOf` too), lengths,
/// array sizes, `allOf`, `oneOf`/`anyOf` (some branch accepts), the string formats `FormatCheck`
/// knows and `pattern`: a declared example that breaks its own format (a relative URI under
/// `format: uri`) is not served, as a response checker such as schemathesis would refuse it. In
/// requests, also the integer formats' ranges.
enum SchemaValidator {
  /// What is wrong and where (`pet.tags[0].name`).
  struct Problem: Sendable, Equatable {
    var field: String
    var message: String
  }

  /// Which way a value travels: a request need not carry `readOnly` members, an answer
  /// need not carry `writeOnly` ones (OpenAPI's rule for `required`).
  enum Direction: Sendable {
    case request, response
  }

  static func problem(
    _ value: JSONValue, _ schema: JSONValue, _ book: SchemaBook, at field: String, direction: Direction = .response,
    depth: Int = 0
  ) -> Problem? {
    if case .bool(let allowed) = schema { return allowed ? nil : Problem(field: field, message: "is not allowed") }
    guard depth < 32 else { return nil }
    let view = SchemaView(schema, book)
    if value == .null {
      return view.allowsNull || view.types.isEmpty && view.mainType == nil
        ? nil : Problem(field: field, message: "must not be null")
    }
    if let c = view.constValue, c != value { return Problem(field: field, message: "must be \(c.compactJSON)") }
    if let choices = view.enumValues, !choices.contains(value) {
      return Problem(field: field, message: "must be one of \(choices.map(\.compactJSON).joined(separator: ", "))")
    }
    let branches = view.alternatives
    if !branches.isEmpty,
      !branches.contains(where: { problem(value, $0, book, at: field, direction: direction, depth: depth + 1) == nil })
    {
      return Problem(field: field, message: "matches none of the schemas allowed")
    }
    let types = view.types.filter { $0 != "null" }
    // `type: "null"` alone allows null only (the null branch of a nullable `oneOf`).
    if types.isEmpty, !view.types.isEmpty { return Problem(field: field, message: "must be null") }
    if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
      return Problem(field: field, message: "must be \(types.joined(separator: " or ")), got \(value.typeName)")
    }
    switch value {
    case .object(let members):
      let properties = view.properties
      for name in view.required where !members.contains(where: { $0.key == name }) {
        let property = properties.first { $0.key == name }.map { book.resolve($0.value) }
        let exempt = direction == .request ? "readOnly" : "writeOnly"
        if property?[exempt]?.boolValue == true { continue }
        return Problem(field: join(field, name), message: "is required")
      }
      for m in members {
        if let schema = properties.first(where: { $0.key == m.key })?.value {
          if let p = problem(m.value, schema, book, at: join(field, m.key), direction: direction, depth: depth + 1) {
            return p
          }
        } else if let extra = view.schema["additionalProperties"] {
          if extra.boolValue == false { return Problem(field: join(field, m.key), message: "is not a known field") }
          if let p = problem(m.value, extra, book, at: join(field, m.key), direction: direction, depth: depth + 1) {
            return p
          }
        }
      }
    case .array(let items):
      if let n = view.int("minItems"), items.count < n {
        return Problem(field: field, message: "needs at least \(n) items")
      }
      if let n = view.int("maxItems"), items.count > n {
        return Problem(field: field, message: "allows at most \(n) items")
      }
      if let schema = view.schema["items"] {
        for (i, item) in items.enumerated() {
          if let p = problem(item, schema, book, at: "\(field)[\(i)]", direction: direction, depth: depth + 1) {
            return p
          }
        }
      }
    case .string(let text):
      if let n = view.int("minLength"), text.count < n {
        return Problem(field: field, message: "needs at least \(n) characters")
      }
      if let n = view.int("maxLength"), text.count > n {
        return Problem(field: field, message: "allows at most \(n) characters")
      }
      if let format = view.format, let message = FormatCheck.problem(text, format: format) {
        return Problem(field: field, message: message)
      }
      if let pattern = view.schema["pattern"]?.stringValue, let message = PatternCheck.problem(text, pattern: pattern) {
        return Problem(field: field, message: message)
      }
    case .number:
      if let message = numberProblem(value.doubleValue ?? 0, view, direction: direction) {
        return Problem(field: field, message: message)
      }
    default:
      break
    }
    return nil
  }

  /// Why a number breaks the schema's bounds: `minimum`/`maximum`, exclusive bounds (OpenAPI
  /// 3.0's boolean form and 3.1's numbers), `multipleOf`, and in requests an integer format.
  static func numberProblem(_ n: Double, _ view: SchemaView, direction: Direction) -> String? {
    let exclusiveLow = view.schema["exclusiveMinimum"]
    let exclusiveHigh = view.schema["exclusiveMaximum"]
    if let low = view.number("minimum") {
      if exclusiveLow?.boolValue == true, n <= low { return "must be more than \(low.shortText)" }
      if n < low { return "must be at least \(low.shortText)" }
    }
    if let high = view.number("maximum") {
      if exclusiveHigh?.boolValue == true, n >= high { return "must be less than \(high.shortText)" }
      if n > high { return "must be at most \(high.shortText)" }
    }
    if let low = exclusiveLow?.doubleValue, n <= low { return "must be more than \(low.shortText)" }
    if let high = exclusiveHigh?.doubleValue, n >= high { return "must be less than \(high.shortText)" }
    if let step = view.number("multipleOf"), step > 0 {
      let ratio = n / step
      if abs(ratio - ratio.rounded()) > 1e-9 * max(1, abs(ratio)) { return "must be a multiple of \(step.shortText)" }
    }
    if direction == .request, let format = view.format { return FormatCheck.problem(n, format: format) }
    return nil
  }

  static func matches(_ value: JSONValue, type: String) -> Bool {
    switch (type, value) {
    case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("number", .number): true
    case ("integer", .number(let text)): !text.contains(".") && !text.contains("e") && !text.contains("E")
    default: false
    }
  }

  private static func join(_ field: String, _ name: String) -> String { field.isEmpty ? name : field + "." + name }
}

extension Double {
  /// `3` rather than `3.0`.
  var shortText: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : "\(self)" }
}
