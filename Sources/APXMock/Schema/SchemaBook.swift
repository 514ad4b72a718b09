import APXCore

/// The API's named schemas (registry `schemas`), for following `{"$ref": "#/schemas/NAME"}`.
struct SchemaBook: Sendable {
  let schemas: [String: JSONValue]

  init(_ members: [JSONMember]) {
    var schemas: [String: JSONValue] = [:]
    for m in members where schemas[m.key] == nil { schemas[m.key] = m.value }
    self.schemas = schemas
  }

  /// `schema` with its reference chain followed; an unknown reference or a loop is `{}` (any value).
  func resolve(_ schema: JSONValue) -> JSONValue {
    var current = schema
    for _ in 0..<16 {
      guard case .object(let members) = current, let ref = members.first(where: { $0.key == "$ref" })?.value.stringValue
      else { return current }
      guard let name = EndpointResponse.schemaName(ref), let target = schemas[name] else { return .object([]) }
      current = target
    }
    return .object([])
  }
}
