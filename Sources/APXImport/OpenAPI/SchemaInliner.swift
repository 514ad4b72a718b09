import APXCore

/// Copies a description's schemas into a registry: references to named schemas
/// (`#/components/schemas/NAME`, Swagger 2.0's `#/definitions/NAME`) become `#/schemas/NAME`,
/// collected once in the registry's top-level `schemas`; other references are inlined.
/// A schema in another file is named too: a whole file by its name without extension
/// (`models/droplet.yml` is `droplet`), a pointer into one by its last token
/// (`common.yaml#/components/schemas/Error` is `Error`), with `-2`, `-3` where names meet.
///
/// Only the keywords that constrain a value are kept (types, formats, bounds, enums, the
/// composition keywords), with the schema's `example` and `examples` (data, copied as written,
/// for the mock to answer with); prose and vendor extensions go. A broken reference, a cycle through
/// inlined references or a schema past the size budget becomes `{}` (any value), never an error.
struct SchemaInliner {
  let resolver: ReferenceResolver
  /// Where the description keeps named schemas: `#/components/schemas/` or `#/definitions/`.
  let namedPrefix: String
  /// Schema nodes kept per copied schema; past it a subschema becomes `{}`.
  static let budget = 2000
  /// Nesting kept; deeper subschemas become `{}`.
  static let maxDepth = 24

  /// Names referred to so far, in the order first seen, with the reference each stands for.
  private(set) var used: [(name: String, ref: String)] = []
  private var nameOfRef: [String: String] = [:]
  private var takenNames: Set<String>

  init(resolver: ReferenceResolver, swagger2: Bool) {
    self.resolver = resolver
    self.namedPrefix = swagger2 ? "#/definitions/" : "#/components/schemas/"
    // The root document's own names come first: a schema from another file yields to them.
    let local = swagger2 ? resolver.root["definitions"] : resolver.root["components"]?["schemas"]
    self.takenNames = Set(local?.objectMembers?.map(\.key) ?? [])
  }

  static let literalKeys: Set<String> = [
    "type", "format", "enum", "const", "default", "required", "nullable", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "minItems",
    "maxItems", "uniqueItems", "minProperties", "maxProperties", "readOnly", "writeOnly", "example",
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
      let (name, ref) = used[i]
      let target = (try? resolver.target(of: ref)) ?? .object([])
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
      if let name = name(of: ref) {
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
      } else if m.key == "examples", case .array = m.value {
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

  /// The registry name a reference to a named schema gets (claimed on first use); nil for a
  /// reference to be inlined or one that does not resolve.
  private mutating func name(of ref: String) -> String? {
    if let known = nameOfRef[ref] { return known }
    guard let candidate = Self.candidateName(ref, namedPrefix: namedPrefix), (try? resolver.target(of: ref)) != nil
    else { return nil }
    var name = candidate
    if !ref.hasPrefix("#") {
      var n = 2
      while takenNames.contains(name) {
        name = "\(candidate)-\(n)"
        n += 1
      }
    }
    takenNames.insert(name)
    nameOfRef[ref] = name
    used.append((name, ref))
    return name
  }

  /// The name a reference proposes: the token after the named-schema prefix in the root
  /// document; in another file, the token after `/components/schemas/`, `/definitions/` or
  /// `/$defs/`, a one-token pointer's token, or the file's name without its extension.
  static func candidateName(_ ref: String, namedPrefix: String) -> String? {
    if ref.hasPrefix("#") {
      guard ref.hasPrefix(namedPrefix), !ref.dropFirst(namedPrefix.count).contains("/") else { return nil }
      return token(ref.dropFirst(namedPrefix.count))
    }
    let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let pointer = parts.count == 2 ? parts[1] : ""
    if pointer.isEmpty {
      let file = parts[0].split(separator: "/").last ?? parts[0]
      let stem = file.firstIndex(of: ".").map { file[..<$0] } ?? file
      return stem.isEmpty ? nil : String(stem)
    }
    let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if tokens.count == 1, let only = tokens.first, !only.isEmpty { return token(only) }
    for prefix in ["/components/schemas/", "/definitions/", "/$defs/"] where pointer.hasPrefix(prefix) {
      let rest = pointer.dropFirst(prefix.count)
      if !rest.isEmpty, !rest.contains("/") { return token(rest) }
    }
    return nil
  }

  static func token(_ text: Substring) -> String {
    PercentDecoding.decode(String(text)).replacing("~1", with: "/").replacing("~0", with: "~")
  }
}
