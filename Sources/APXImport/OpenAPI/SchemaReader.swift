import APXCore

/// Reads JSON Schemas (OpenAPI 2.0, 3.0 and 3.1 dialects) as far as a registry
/// needs them: a parameter type, object properties, and a body template.
/// Every walk is bounded (depth and size) and follows `$ref`s through the
/// cycle-safe `ReferenceResolver`, so recursive schemas end in `{}`.
struct SchemaReader {
  let resolver: ReferenceResolver
  /// What the import could not keep as written, for the report's notes.
  let notes = ImportNotes()
  /// Nesting kept in a body template; deeper values become `{}` / `[]`.
  static let templateDepth = 6
  /// Values in one body template at most.
  static let templateBudget = 400

  /// The schema with its references followed, or nil when they are broken.
  func resolved(_ schema: JSONValue?) -> JSONValue? {
    guard let schema else { return nil }
    return try? resolver.resolve(schema)
  }

  /// The JSON type a schema declares: `type` (the first non-null of a 3.1 list),
  /// else the first typed branch of `allOf`/`oneOf`/`anyOf`, else guessed from keywords.
  func typeName(_ schema: JSONValue?, depth: Int = 0) -> String? {
    guard depth < 8, let s = resolved(schema) else { return nil }
    switch s["type"] {
    case .string(let t)?: return t
    case .array(let list)?:
      if let t = list.compactMap(\.stringValue).first(where: { $0 != "null" }) { return t }
    default: break
    }
    for key in ["allOf", "oneOf", "anyOf"] {
      for branch in s[key]?.arrayValue ?? [] {
        if let t = typeName(branch, depth: depth + 1) { return t }
      }
    }
    if s["properties"] != nil || s["additionalProperties"] != nil { return "object" }
    if s["items"] != nil { return "array" }
    if let first = s["enum"]?.arrayValue?.first {
      switch first {
      case .string: return "string"
      case .number(let n): return n.contains(".") ? "number" : "integer"
      case .bool: return "boolean"
      default: return nil
      }
    }
    return nil
  }

  /// The registry type for a parameter or field with this schema.
  func paramType(_ schema: JSONValue?, fileAllowed: Bool) -> ParamType {
    let s = resolved(schema)
    if fileAllowed, isBinary(s) { return .file }
    switch typeName(schema) {
    case "integer": return .integer
    case "number": return .number
    case "boolean": return .boolean
    case "array": return .array
    case "object": return .json
    case "string": return .string
    default: return s == nil || s?.objectMembers?.isEmpty == true ? .string : .json
    }
  }

  /// A binary string (`format: binary`/`base64` in 2.0/3.0, `contentMediaType` or
  /// `contentEncoding` in 3.1), or an array of them (several files).
  func isBinary(_ schema: JSONValue?) -> Bool {
    guard let s = schema else { return false }
    if typeName(s) == "array", let items = resolved(s["items"]) { return isBinary(items) }
    if typeName(s) == "file" { return true }  // Swagger 2.0 formData
    let format = s["format"]?.stringValue
    return format == "binary" || s["contentMediaType"] != nil || s["contentEncoding"]?.stringValue == "binary"
  }

  /// Scalar enum values (3.1 `const` as a one-value enum); nil when absent or not scalars.
  func allowedValues(_ schema: JSONValue?) -> [JSONValue]? {
    guard let s = resolved(schema) else { return nil }
    if let c = s["const"], isScalar(c) { return [c] }
    // Arrays keep no enum: the registry checks `enum` against the whole value.
    guard let list = s["enum"]?.arrayValue, !list.isEmpty, list.allSatisfy(isScalar) else { return nil }
    let values = list.filter { $0 != .null }
    return values.isEmpty ? nil : values
  }

  /// The bounds, lengths, pattern and format of a parameter or field of `type`, as far as a
  /// registry keeps them: bounds on numbers, lengths and pattern on strings. A pattern that
  /// apx's regular expressions cannot read is left out, with a note naming it.
  func constraints(_ schema: JSONValue?, type: ParamType, field: String) -> ValueConstraints {
    var c = ValueConstraints()
    guard let s = resolved(schema) else { return c }
    c.format = s["format"]?.stringValue
    if type == .integer || type == .number {
      c.minimum = s["minimum"]?.doubleValue.flatMap { $0.isFinite ? $0 : nil }
      c.maximum = s["maximum"]?.doubleValue.flatMap { $0.isFinite ? $0 : nil }
      if let lo = c.minimum, let hi = c.maximum, lo > hi { (c.minimum, c.maximum) = (nil, nil) }
    }
    if type == .string {
      c.minLength = s["minLength"]?.intValue.flatMap { $0 >= 0 ? $0 : nil }
      c.maxLength = s["maxLength"]?.intValue.flatMap { $0 >= 0 ? $0 : nil }
      if let lo = c.minLength, let hi = c.maxLength, lo > hi { (c.minLength, c.maxLength) = (nil, nil) }
      if let pattern = s["pattern"]?.stringValue {
        do throws(LinearRegexError) {
          try c.setPattern(pattern)
        } catch {
          notes.add("the pattern of \(field) is not checked (\(error.message)): \(pattern)")
        }
      }
    }
    return c
  }

  func isScalar(_ v: JSONValue) -> Bool {
    switch v {
    case .array, .object: false
    default: true
    }
  }

  /// An object schema's properties, `allOf` parts merged in order, and its
  /// `required` names; nil when the schema is not an object with properties.
  func objectProperties(_ schema: JSONValue?) -> (members: [JSONMember], required: Set<String>)? {
    var members: [JSONMember] = []
    var required = Set<String>()
    var seen = Set<String>()
    collect(schema, depth: 0, into: &members, required: &required, seen: &seen)
    return members.isEmpty ? nil : (members, required)
  }

  private func collect(
    _ schema: JSONValue?, depth: Int, into members: inout [JSONMember], required: inout Set<String>,
    seen: inout Set<String>
  ) {
    guard depth < 8, let s = resolved(schema) else { return }
    for name in s["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] { required.insert(name) }
    for m in s["properties"]?.objectMembers ?? [] where seen.insert(m.key).inserted {
      members.append(m)
    }
    for part in s["allOf"]?.arrayValue ?? [] {
      collect(part, depth: depth + 1, into: &members, required: &required, seen: &seen)
    }
  }

  /// An example value for a schema: its `example`/`examples`/`default`/`const`/first enum
  /// value when given (example data is copied as-is, `$ref`-looking keys included),
  /// else built from its type and properties.
  func template(_ schema: JSONValue?) -> JSONValue {
    var budget = Self.templateBudget
    var stack: [String] = []
    return template(schema, depth: 0, budget: &budget, stack: &stack)
  }

  private func template(_ schema: JSONValue?, depth: Int, budget: inout Int, stack: inout [String]) -> JSONValue {
    budget -= 1
    guard let schema else { return .null }
    // Follow references one by one so a cycle is seen as a repeat on the stack.
    if let ref = ReferenceResolver.reference(of: schema)?.stringValue {
      if stack.contains(ref) || depth > Self.templateDepth || budget <= 0 { return .object([]) }
      guard let target = try? resolver.target(of: ref) else { return .null }
      stack.append(ref)
      defer { stack.removeLast() }
      return template(target, depth: depth, budget: &budget, stack: &stack)
    }
    guard case .object = schema else { return .null }
    if let example = schema["example"] { return example }
    if let first = schema["examples"]?.arrayValue?.first { return first }
    if let d = schema["default"] { return d }
    if let c = schema["const"] { return c }
    if let first = schema["enum"]?.arrayValue?.first { return first }
    if depth > Self.templateDepth || budget <= 0 {
      return typeName(schema) == "array" ? .array([]) : (typeName(schema) == "object" ? .object([]) : .null)
    }
    for key in ["oneOf", "anyOf"] {
      if let first = schema[key]?.arrayValue?.first, schema["properties"] == nil {
        return template(first, depth: depth + 1, budget: &budget, stack: &stack)
      }
    }
    switch typeName(schema) {
    case "object":
      var out: [JSONMember] = []
      var seen = Set<String>()
      for m in schema["properties"]?.objectMembers ?? [] where seen.insert(m.key).inserted {
        if resolved(m.value)?["readOnly"]?.boolValue == true { continue }
        out.append(JSONMember(m.key, template(m.value, depth: depth + 1, budget: &budget, stack: &stack)))
        if budget <= 0 { break }
      }
      for part in schema["allOf"]?.arrayValue ?? [] {
        if case .object(let members) = template(part, depth: depth + 1, budget: &budget, stack: &stack) {
          for m in members where seen.insert(m.key).inserted { out.append(m) }
        }
      }
      return .object(out)
    case "array":
      let item = template(schema["items"], depth: depth + 1, budget: &budget, stack: &stack)
      return .array(item == .null ? [] : [item])
    case "string":
      switch schema["format"]?.stringValue {
      case "date-time": return .string("2024-01-01T00:00:00Z")
      case "date": return .string("2024-01-01")
      case "email": return .string("user@example.com")
      case "uri", "url": return .string("https://example.com")
      case "uuid": return .string("00000000-0000-0000-0000-000000000000")
      case "binary", "byte": return .string("")
      default: return .string("string")
      }
    case "integer": return .int(0)
    case "number": return .int(0)
    case "boolean": return .bool(false)
    default: return .null
    }
  }
}

/// Notes gathered while the schemas are read (a reader is shared by value, its notes are not).
final class ImportNotes {
  private(set) var all: [String] = []
  func add(_ text: String) { if !all.contains(text) { all.append(text) } }
}
