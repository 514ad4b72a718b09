import APXCore

/// Read access to the keywords of one JSON Schema (the inlined schemas of a registry's
/// `responses`, or a description's), shared by the generator and the validator.
struct SchemaView {
  let schema: JSONValue
  let book: SchemaBook

  /// The schema with its references followed, and its `allOf` parts merged in.
  init(_ schema: JSONValue, _ book: SchemaBook) {
    self.book = book
    self.schema = Self.merged(book.resolve(schema), book, depth: 0)
  }

  /// The declared types (`type` as a string or a list); empty when the schema names none.
  var types: [String] {
    switch schema["type"] {
    case .string(let t)?: return [t]
    case .array(let list)?: return list.compactMap(\.stringValue)
    default: return []
    }
  }

  /// Whether null is allowed: `type` lists it, or OpenAPI 3.0's `nullable: true`.
  var allowsNull: Bool { types.contains("null") || schema["nullable"]?.boolValue == true }

  /// The type a value is generated as: the first non-null declared type, else guessed from keywords.
  var mainType: String? {
    if let t = types.first(where: { $0 != "null" }) { return t }
    if schema["properties"] != nil || schema["additionalProperties"] != nil || schema["required"] != nil {
      return "object"
    }
    if schema["items"] != nil { return "array" }
    if schema["minLength"] != nil || schema["maxLength"] != nil || schema["pattern"] != nil
      || schema["format"] != nil
    {
      return "string"
    }
    if schema["minimum"] != nil || schema["maximum"] != nil { return "number" }
    return nil
  }

  var properties: [JSONMember] { schema["properties"]?.objectMembers ?? [] }
  var required: [String] { schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
  var enumValues: [JSONValue]? { schema["enum"]?.arrayValue }
  var constValue: JSONValue? { schema["const"] }
  var format: String? { schema["format"]?.stringValue }
  var allOf: [JSONValue] { schema["allOf"]?.arrayValue ?? [] }
  /// The branches of `oneOf`, else `anyOf`.
  var alternatives: [JSONValue] { schema["oneOf"]?.arrayValue ?? schema["anyOf"]?.arrayValue ?? [] }

  func number(_ key: String) -> Double? { schema[key]?.doubleValue }
  func int(_ key: String) -> Int? { schema[key]?.doubleValue.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil } }

  /// `schema` with its `allOf` parts merged into it (properties, required, bounds).
  private static func merged(_ schema: JSONValue, _ book: SchemaBook, depth: Int) -> JSONValue {
    guard case .object(var members) = schema, let allOf = schema["allOf"]?.arrayValue, depth < 16 else {
      return schema
    }
    members.removeAll { $0.key == "allOf" }
    for part in allOf {
      let inner = merged(book.resolve(part), book, depth: depth + 1)
      for m in inner.objectMembers ?? [] {
        if let i = members.firstIndex(where: { $0.key == m.key }) {
          switch (members[i].value, m.value) {
          case (.object(let a), .object(let b)) where m.key == "properties":
            members[i].value = .object(a + b.filter { new in !a.contains { $0.key == new.key } })
          case (.array(let a), .array(let b)) where m.key == "required":
            members[i].value = .array(a + b.filter { !a.contains($0) })
          default:
            break  // the first part's constraint stands
          }
        } else {
          members.append(m)
        }
      }
    }
    return .object(members)
  }
}
