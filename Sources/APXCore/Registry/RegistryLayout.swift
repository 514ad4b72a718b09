/// The text layout of registry files written by apx, chosen for reading and
/// for diffs: the document, `environments`, each environment, `endpoints`,
/// each endpoint, each endpoint's `params` and every `retry` block put one
/// key per line; any other object or array whose values are all scalars (or
/// arrays of scalars) stays on one line, `{ "in": "query", "type": "integer" }`,
/// when that line fits in `width` columns. Adding or changing one parameter
/// therefore changes one line.
public enum RegistryLayout {
  /// Lines longer than this are broken.
  public static let width = 120

  /// Renders `value`, which sits at `path` (keys from the document root) and at
  /// nesting `depth`; the first line carries no indentation, the others do.
  public static func render(_ value: JSONValue, depth: Int, path: [String] = []) -> String {
    var out = ""
    write(value, depth: depth, path: path, prefixWidth: depth * 2, into: &out)
    return out
  }

  /// Objects that always put one member per line (see the type's comment).
  static func isBlock(_ path: [String]) -> Bool {
    switch path.count {
    case 0: return true
    case 1: return ["environments", "endpoints", "retry"].contains(path[0])
    case 2: return path[0] == "environments" || path[0] == "endpoints"
    case 3: return path[0] == "endpoints" && (path[2] == "params" || path[2] == "retry")
    default: return false
    }
  }

  private static func write(_ value: JSONValue, depth: Int, path: [String], prefixWidth: Int, into out: inout String) {
    switch value {
    case .object(let members) where !members.isEmpty:
      // +1 for a trailing comma.
      if !isBlock(path), let flat = inline(value), prefixWidth + flat.count + 1 <= width {
        out += flat
        return
      }
      out += "{\n"
      for (i, m) in members.enumerated() {
        let key = quoted(m.key) + ": "
        out += indent(depth + 1) + key
        write(m.value, depth: depth + 1, path: path + [m.key], prefixWidth: (depth + 1) * 2 + key.count, into: &out)
        out += i == members.count - 1 ? "\n" : ",\n"
      }
      out += indent(depth) + "}"
    case .array(let items) where !items.isEmpty:
      if let flat = inline(value), prefixWidth + flat.count + 1 <= width {
        out += flat
        return
      }
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += indent(depth + 1)
        write(item, depth: depth + 1, path: path, prefixWidth: (depth + 1) * 2, into: &out)
        out += i == items.count - 1 ? "\n" : ",\n"
      }
      out += indent(depth) + "]"
    default:
      out += value.compactJSON
    }
  }

  /// The one-line form of a container of scalars (objects may hold arrays of scalars), else nil.
  static func inline(_ value: JSONValue) -> String? {
    switch value {
    case .array(let items):
      guard items.allSatisfy(isScalar) else { return nil }
      return "[" + items.map(\.compactJSON).joined(separator: ", ") + "]"
    case .object(let members):
      var parts: [String] = []
      for m in members {
        if isScalar(m.value) {
          parts.append(quoted(m.key) + ": " + m.value.compactJSON)
        } else if let flat = inline(m.value), m.value.arrayValue != nil {
          parts.append(quoted(m.key) + ": " + flat)
        } else {
          return nil
        }
      }
      return parts.isEmpty ? "{}" : "{ " + parts.joined(separator: ", ") + " }"
    default:
      return value.compactJSON
    }
  }

  static func isScalar(_ value: JSONValue) -> Bool {
    switch value {
    case .array(let a): a.isEmpty
    case .object(let m): m.isEmpty
    default: true
    }
  }

  static func quoted(_ s: String) -> String { JSONValue.string(s).compactJSON }

  static func indent(_ depth: Int) -> String { String(repeating: " ", count: depth * 2) }
}
