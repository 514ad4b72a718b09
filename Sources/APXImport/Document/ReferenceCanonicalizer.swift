public import APXCore

/// One `$ref` of a description file that names another file.
public struct ExternalReference: Sendable, Hashable {
  /// The reference as written.
  public var text: String
  /// The file it names.
  public var target: DocumentLocation
  /// What follows its `#` (a JSON pointer, or empty for the whole file).
  public var fragment: String
}

/// Rewrites the `$ref`s of one description file so that each names its target
/// without depending on the file it is written in: a reference to another file becomes
/// `KEY#FRAGMENT` (the target's `DocumentLocation.key`), a local one in a file other than
/// the root becomes `KEY#...` of that file, and one into the root document becomes `#...`.
/// `ReferenceResolver` then follows any of them from anywhere.
///
/// Literal data is not searched: `example`, `default`, `const`, `enum` and an Example
/// object's `value`, and vendor extensions (`x-...`), whose `$ref`s are not references
/// the import follows. Maps whose keys are names (`properties`, `paths`, `responses`, ...)
/// are walked entry by entry, so a property named `example` is still a schema.
public struct ReferenceCanonicalizer {
  let location: DocumentLocation
  let root: DocumentLocation
  /// `$id`s of the root document: a reference to one of them is not a file.
  let ids: Set<String>
  /// The references into other files, in document order, each once.
  public private(set) var external: [ExternalReference] = []
  /// References naming something apx cannot read (a `urn:`, an `ftp://` URL), as written.
  public private(set) var unreadable: [String] = []
  private var seen = Set<String>()

  static let literalKeys: Set<String> = ["example", "default", "const", "enum", "value"]
  static let nameMapKeys: Set<String> = [
    "properties", "patternProperties", "definitions", "$defs", "schemas", "responses", "parameters",
    "headers", "paths", "content", "callbacks", "links", "securitySchemes", "requestBodies", "pathItems",
    "encoding", "securityDefinitions", "webhooks", "dependentSchemas",
  ]

  public init(location: DocumentLocation, root: DocumentLocation, ids: Set<String> = []) {
    self.location = location
    self.root = root
    self.ids = ids
  }

  /// `value` with its references rewritten; `external` then lists those into other files.
  public mutating func canonicalize(_ value: JSONValue) -> JSONValue {
    walk(value, namesMap: false)
  }

  private mutating func walk(_ value: JSONValue, namesMap: Bool) -> JSONValue {
    switch value {
    case .array(let items):
      var out: [JSONValue] = []
      out.reserveCapacity(items.count)
      for item in items { out.append(walk(item, namesMap: false)) }
      return .array(out)
    case .object(let members):
      var out: [JSONMember] = []
      out.reserveCapacity(members.count)
      for m in members {
        if namesMap {
          out.append(JSONMember(m.key, walk(m.value, namesMap: false)))
        } else if m.key == "$ref", case .string(let text) = m.value {
          out.append(JSONMember(m.key, .string(rewritten(text))))
        } else if Self.literalKeys.contains(m.key) || m.key.hasPrefix("x-") {
          out.append(m)
        } else if m.key == "examples" {
          // A schema's `examples` is a list of values; a media type's is a map of Example objects.
          if case .object = m.value {
            out.append(JSONMember(m.key, walk(m.value, namesMap: true)))
          } else {
            out.append(m)
          }
        } else {
          out.append(JSONMember(m.key, walk(m.value, namesMap: Self.nameMapKeys.contains(m.key))))
        }
      }
      return .object(out)
    default:
      return value
    }
  }

  private mutating func rewritten(_ text: String) -> String {
    let fragment = text.firstIndex(of: "#").map { String(text[text.index(after: $0)...]) } ?? ""
    let targetText = String(text.prefix { $0 != "#" })
    if targetText.isEmpty {
      // Local to this file.
      return location == root ? text : location.key + "#" + fragment
    }
    if ids.contains(targetText) { return text }
    guard let target = location.resolving(text) else {
      if !unreadable.contains(text) { unreadable.append(text) }
      return text
    }
    if target == root { return "#" + fragment }
    if seen.insert(text).inserted {
      external.append(ExternalReference(text: text, target: target, fragment: fragment))
    }
    return target.key + "#" + fragment
  }
}
