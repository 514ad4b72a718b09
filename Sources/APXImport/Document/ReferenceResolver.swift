public import APXCore

/// Resolves `$ref`s of one document lazily, only where the importer looks,
/// so a reference cycle, a dangling reference or a `$ref` inside example data
/// never matters unless an operation actually needs it.
///
/// Supports local JSON pointers (`#/components/schemas/Pet`, with `~0`, `~1`
/// and percent escapes), 3.1 `$id` anchors inside the document, and references
/// into the other files of a `DescriptionSet` (rewritten to `KEY#POINTER` when they
/// were read, so a value taken from any file resolves the same way).
public final class ReferenceResolver {
  /// A chain of `$ref`s longer than this is treated as a cycle.
  static let maxHops = 64

  let root: JSONValue
  /// The description's other files, by `DocumentLocation.key`.
  let documents: [String: JSONValue]
  private var cache: [String: JSONValue?] = [:]
  private var ids: [String: JSONValue]?

  public init(root: JSONValue, documents: [String: JSONValue] = [:]) {
    self.root = root
    self.documents = documents
  }

  /// Why a reference could not be followed.
  public struct Failure: Error, Sendable {
    public var message: String
  }

  /// The `$ref` of `value` when it is a reference object; YAML reads an
  /// unquoted `$ref: #/...` as null (a comment), which counts as broken.
  static func reference(of value: JSONValue) -> JSONValue? {
    guard case .object(let members) = value else { return nil }
    return members.first(where: { $0.key == "$ref" })?.value
  }

  /// `value` with its `$ref` chain followed (siblings of `$ref` are dropped, as in 3.0).
  public func resolve(_ value: JSONValue) throws(Failure) -> JSONValue {
    var current = value
    var seen: [String] = []
    while let ref = Self.reference(of: current) {
      guard case .string(let text) = ref else {
        throw Failure(message: "a $ref is \(ref.typeName) (an unquoted `$ref: #/...` in YAML reads as a comment)")
      }
      if seen.contains(text) || seen.count >= Self.maxHops {
        throw Failure(message: "the reference \(text) refers to itself")
      }
      seen.append(text)
      current = try target(of: text)
    }
    return current
  }

  /// The value a reference points at.
  public func target(of ref: String) throws(Failure) -> JSONValue {
    if let cached = cache[ref] {
      guard let cached else { throw Failure(message: "cannot resolve \(ref)") }
      return cached
    }
    let found = lookup(ref)
    cache[ref] = .some(found)
    guard let found else {
      throw Failure(
        message: ref.hasPrefix("#")
          ? "\(ref) does not exist in the document" : "cannot resolve \(ref)")
    }
    return found
  }

  private func lookup(_ ref: String) -> JSONValue? {
    if ref.hasPrefix("#") {
      let pointer = String(ref.dropFirst())
      if pointer.isEmpty { return root }
      if !pointer.hasPrefix("/") { return idIndex()["#" + pointer] }
      return Self.walk(root, pointer: pointer)
    }
    let parts = ref.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    if let document = documents[String(parts[0])] {
      let fragment = parts.count == 2 ? String(parts[1]) : ""
      if fragment.isEmpty { return document }
      if fragment.hasPrefix("/") { return Self.walk(document, pointer: fragment) }
      return Self.identifiers(in: document)["#" + fragment]
    }
    // A 3.1 `$id`-style reference (possibly with a pointer after '#').
    guard let base = idIndex()[String(parts[0])] else { return nil }
    if parts.count == 2, !parts[1].isEmpty { return Self.walk(base, pointer: String(parts[1])) }
    return base
  }

  static func walk(_ start: JSONValue, pointer: String) -> JSONValue? {
    var current = start
    for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      let token = PercentDecoding.decode(String(raw)).replacing("~1", with: "/").replacing("~0", with: "~")
      switch current {
      case .object(let members):
        guard let next = members.first(where: { $0.key == token })?.value else { return nil }
        current = next
      case .array(let items):
        guard let i = Int(token), items.indices.contains(i) else { return nil }
        current = items[i]
      default:
        return nil
      }
    }
    return current
  }

  /// Schemas by `$id` (and `$anchor` as `#name`), indexed on first use.
  private func idIndex() -> [String: JSONValue] {
    if let ids { return ids }
    let found = Self.identifiers(in: root)
    ids = found
    return found
  }

  /// The schemas of `root` by `$id` (and `$anchor` as `#name`). Iterative: no recursion limit.
  static func identifiers(in root: JSONValue) -> [String: JSONValue] {
    var found: [String: JSONValue] = [:]
    var stack: [JSONValue] = [root]
    var visited = 0
    while let value = stack.popLast(), visited < 5_000_000 {
      visited += 1
      switch value {
      case .object(let members):
        for m in members {
          if m.key == "$id", case .string(let id) = m.value, found[id] == nil { found[id] = value }
          if m.key == "$anchor", case .string(let a) = m.value, found["#" + a] == nil { found["#" + a] = value }
          if case .string = m.value { continue }
          stack.append(m.value)
        }
      case .array(let items):
        stack.append(contentsOf: items)
      default:
        break
      }
    }
    return found
  }
}
