import APXCore

/// Copies a description's schemas into a registry: references to named schemas
/// (`#/components/schemas/NAME`, Swagger 2.0's `#/definitions/NAME`) become `#/schemas/NAME`,
/// collected once in the registry's top-level `schemas`; other references are inlined.
///
/// Only the keywords that constrain a value are kept (types, formats, bounds, enums, the
/// composition keywords); prose and vendor extensions go. A broken reference, a cycle through
/// inlined references or a schema past the size budget becomes `{}` (any value), never an error.
struct SchemaInliner {
  let resolver: ReferenceResolver
  /// Where the description keeps named schemas: `#/components/schemas/` or `#/definitions/`.
  let namedPrefix: String
  /// Schema nodes kept per copied schema; past it a subschema becomes `{}`.
  static let budget = 2000
  /// Nesting kept; deeper subschemas become `{}`.
  static let maxDepth = 24

  /// Names referred to so far, in the order first seen.
  private(set) var used: [String] = []
  private var usedSet = Set<String>()

  init(resolver: ReferenceResolver, swagger2: Bool) {
    self.resolver = resolver
    self.namedPrefix = swagger2 ? "#/definitions/" : "#/components/schemas/"
  }

  static let literalKeys: Set<String> = [
    "type", "format", "enum", "const", "default", "required", "nullable", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems",
    "maxItems", "uniqueItems", "minProperties", "maxProperties", "readOnly", "writeOnly",
  ]
  static let schemaKeys: Set<String> = ["items", "additionalProperties", "not"]
  static let schemaListKeys: Set<String> = ["allOf", "oneOf", "anyOf", "prefixItems"]

  /// The schema as the registry keeps it.
  mutating func copy(_ schema: JSONValue) -> JSONValue {
    var budget = Self.budget
    var stack: [String] = []
    return copy(schema, depth: 0, budget: &budget, stack: &stack)
  }

  /// The registry's `schemas`: every named schema referred to, and those they refer to.
  mutating func namedSchemas() -> [JSONMember] {
    var out: [JSONMember] = []
    var i = 0
    while i < used.count {
      let name = used[i]
      let target = (try? resolver.target(of: namedPrefix + Self.pointerToken(name))) ?? .object([])
      var budget = Self.budget
      var stack: [String] = []
      out.append(JSONMember(name, copy(target, depth: 0, budget: &budget, stack: &stack)))
      i += 1
    }
    return out
  }

  private mutating func copy(_ schema: JSONValue, depth: Int, budget: inout Int, stack: inout [String]) -> JSONValue {
    budget -= 1
    if case .bool = schema { return schema }
    if let ref = ReferenceResolver.reference(of: schema)?.stringValue {
      if ref.hasPrefix(namedPrefix), !ref.dropFirst(namedPrefix.count).contains("/"),
        (try? resolver.target(of: ref)) != nil
      {
        let name = PercentDecoding.decode(String(ref.dropFirst(namedPrefix.count)))
          .replacing("~1", with: "/").replacing("~0", with: "~")
        if usedSet.insert(name).inserted { used.append(name) }
        return .object([JSONMember("$ref", .string(EndpointResponse.schemaReference(name)))])
      }
      guard !stack.contains(ref), depth < Self.maxDepth, budget > 0, let target = try? resolver.target(of: ref) else {
        return .object([])
      }
      stack.append(ref)
      defer { stack.removeLast() }
      return copy(target, depth: depth, budget: &budget, stack: &stack)
    }
    guard case .object(let members) = schema, depth < Self.maxDepth, budget > 0 else { return .object([]) }
    var out: [JSONMember] = []
    for m in members {
      if Self.literalKeys.contains(m.key) {
        out.append(m)
      } else if Self.schemaKeys.contains(m.key) {
        out.append(JSONMember(m.key, copy(m.value, depth: depth + 1, budget: &budget, stack: &stack)))
      } else if Self.schemaListKeys.contains(m.key), let list = m.value.arrayValue {
        var copies: [JSONValue] = []
        for item in list { copies.append(copy(item, depth: depth + 1, budget: &budget, stack: &stack)) }
        out.append(JSONMember(m.key, .array(copies)))
      } else if m.key == "properties", let properties = m.value.objectMembers {
        var copies: [JSONMember] = []
        for p in properties {
          copies.append(JSONMember(p.key, copy(p.value, depth: depth + 1, budget: &budget, stack: &stack)))
        }
        out.append(JSONMember(m.key, .object(copies)))
      }
    }
    return .object(out)
  }

  static func pointerToken(_ name: String) -> String {
    name.replacing("~", with: "~0").replacing("/", with: "~1")
  }
}
