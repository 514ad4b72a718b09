/// One answer an endpoint declares (registry `responses`): what `apx mock` serves, and what
/// `apx import` copies from an API description.
public struct EndpointResponse: Sendable, Hashable {
  /// The status: `"200"`, a range such as `"4XX"`, or `"default"`.
  public var status: String
  /// The media type of the body; nil: no body (e.g. 204).
  public var contentType: String?
  /// A JSON Schema of the body, references already inlined.
  public var schema: JSONValue?
  /// Named example bodies, in declaration order.
  public var examples: [JSONMember]

  public init(status: String, contentType: String? = nil, schema: JSONValue? = nil, examples: [JSONMember] = []) {
    self.status = status
    self.contentType = contentType
    self.schema = schema
    self.examples = examples
  }

  /// The status as a number: `200`; a range (`4XX`) as its first code (400); `default` as nil.
  public var code: Int? {
    if let exact = Int(status) { return exact }
    guard status.count == 3, status.uppercased().hasSuffix("XX"), let digit = Int(status.prefix(1)) else { return nil }
    return digit * 100
  }

  /// Whether `text` is a status a `responses` key may be: 100-599, `1XX`...`5XX`, or `default`.
  public static func isStatusKey(_ text: String) -> Bool {
    if text == "default" { return true }
    if let n = Int(text), text.count == 3 { return (100...599).contains(n) }
    let upper = text.uppercased()
    return upper.count == 3 && upper.hasSuffix("XX") && ("1"..."5").contains(String(upper.prefix(1)))
  }
}

extension RegistryLoader {
  static let responseKeys = ["content_type", "schema", "examples"]

  /// Decodes an endpoint's `responses` object; problems go to `r`.
  static func decodeResponses(_ value: JSONValue, at p: [JSONPathComponent], _ r: inout DocumentReader)
    -> [EndpointResponse]
  {
    guard let members = r.object(value, at: p) else { return [] }
    var out: [EndpointResponse] = []
    for member in members {
      let mp = p + [.key(member.key)]
      guard EndpointResponse.isStatusKey(member.key) else {
        r.fail(
          mp, "\"\(member.key)\" is not a response status", hint: "use a status such as \"200\", \"4XX\" or \"default\""
        )
        continue
      }
      guard let fields = r.object(member.value, at: mp, allowed: responseKeys) else { continue }
      var response = EndpointResponse(status: member.key)
      response.contentType = r.optionalString(fields, "content_type", at: mp)
      response.schema = optionalSchema(fields, "schema", at: mp, &r)
      if let examples = fields.first(where: { $0.key == "examples" })?.value {
        response.examples = r.object(examples, at: mp + [.key("examples")]) ?? []
      }
      out.append(response)
    }
    return out
  }
}

extension RegistryLoader {
  /// The prefix of a reference to the API's `schemas`.
  public static let schemaReferencePrefix = "#/schemas/"

  /// Decodes the top-level `schemas` (name to JSON Schema); their references are checked
  /// once the endpoints are read (`checkSchemaReferences`).
  static func decodeSchemas(_ value: JSONValue, _ r: inout DocumentReader) -> [JSONMember] {
    guard let members = r.object(value, at: [.key("schemas")]) else { return [] }
    for m in members { _ = schema(m.value, at: [.key("schemas"), .key(m.key)], &r) }
    return members
  }

  /// The JSON Schema under `key`, if any: an object or a boolean, else an error.
  static func optionalSchema(
    _ members: [JSONMember], _ key: String, at path: [JSONPathComponent], _ r: inout DocumentReader
  ) -> JSONValue? {
    members.first { $0.key == key }.flatMap { schema($0.value, at: path + [.key(key)], &r) }
  }

  /// `value` when it is a JSON Schema (an object or a boolean); nil, with an error, otherwise.
  static func schema(_ value: JSONValue, at path: [JSONPathComponent], _ r: inout DocumentReader) -> JSONValue? {
    switch value {
    case .object, .bool: return value
    default:
      r.fail(path, "expected a JSON Schema (an object or a boolean), got \(value.typeName)")
      return nil
    }
  }

  /// Reports `$ref`s in `schema` that name no entry of `schemas`. Values under the data
  /// keywords (`example`, `examples`, `default`, `const`, `enum`) are data, not schemas: a
  /// `$ref` there is an example's member. Under `properties` and the like, every key is a name,
  /// so a property called `example` is still a schema.
  static func checkReferences(
    _ schema: JSONValue, schemas: [JSONMember], at path: [JSONPathComponent], _ r: inout DocumentReader
  ) {
    var stack = [(value: schema, namesMap: false)]
    var visited = 0
    while let (value, namesMap) = stack.popLast(), visited < 1_000_000 {
      visited += 1
      switch value {
      case .object(let members):
        for m in members {
          if namesMap {
            stack.append((m.value, false))
          } else if m.key == "$ref", case .string(let ref) = m.value {
            let name = EndpointResponse.schemaName(ref)
            if name == nil || !schemas.contains(where: { $0.key == name }) {
              r.fail(
                path, "the reference \(ref) names no entry of \"schemas\"",
                hint: "refer to schemas as {\"$ref\": \"#/schemas/NAME\"} and add NAME to the top-level \"schemas\"")
              return
            }
          } else if !dataKeywords.contains(m.key) {
            stack.append((m.value, schemaMapKeywords.contains(m.key)))
          }
        }
      case .array(let items): stack.append(contentsOf: items.map { ($0, false) })
      default: break
      }
    }
  }

  /// Keywords whose values are data (an example, a default), never schemas.
  static let dataKeywords: Set<String> = ["example", "examples", "default", "const", "enum"]
  /// Keywords whose values map names to schemas.
  static let schemaMapKeywords: Set<String> = [
    "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
  ]
}

extension EndpointResponse {
  /// The name `#/schemas/NAME` refers to (JSON Pointer escapes undone); nil for another reference.
  public static func schemaName(_ ref: String) -> String? {
    guard ref.hasPrefix(RegistryLoader.schemaReferencePrefix) else { return nil }
    let token = ref.dropFirst(RegistryLoader.schemaReferencePrefix.count)
    guard !token.contains("/") else { return nil }
    return PercentDecoding.decode(String(token)).replacing("~1", with: "/").replacing("~0", with: "~")
  }

  /// `#/schemas/NAME` for `name`, escaped as a JSON Pointer token.
  public static func schemaReference(_ name: String) -> String {
    RegistryLoader.schemaReferencePrefix + name.replacing("~", with: "~0").replacing("/", with: "~1")
  }
}
