import APXCore

/// A codec failure on its way up: each enclosing message adds its path
/// component (`.lesson`, `[2]`, `["key"]`) as the error passes, so the happy
/// path pays nothing for path tracking.
struct CodecError: Error {
  var kind: ProtobufError.Kind
  var message: String
  var hint: String?
  /// Path components, innermost first.
  var reversedPath: [String] = []

  init(_ kind: ProtobufError.Kind, _ message: String, hint: String? = nil) {
    self.kind = kind
    self.message = message
    self.hint = hint
  }

  /// A bad request: the JSON does not fit the message type.
  static func invalidJSON(_ message: String, hint: String? = nil) -> CodecError {
    CodecError(.invalidJSON, message, hint: hint)
  }

  func adding(_ component: String) -> CodecError {
    var copy = self
    copy.reversedPath.append(component)
    return copy
  }

  var path: String { reversedPath.reversed().joined() }

  /// `PREFIX.lesson.labels: expected a string value, got 3`.
  func protobufError(prefix: String = "") -> ProtobufError {
    let p = path
    return ProtobufError(
      kind, prefix + (p.isEmpty ? message : "\(p): \(message)"), fieldPath: p.isEmpty ? nil : p, hint: hint)
  }

  /// `.name` for identifier-like keys, `["odd key"]` otherwise.
  static func component(key: String) -> String {
    let simple =
      !key.isEmpty
      && key.utf8.allSatisfy { c in
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c == 95
      }
    return simple ? "." + key : "[" + JSONSnippet.quote(key) + "]"
  }
}

/// Short JSON renderings of values for error messages.
enum JSONSnippet {
  static func quote(_ s: String) -> String {
    var out = "\""
    for ch in s.unicodeScalars {
      switch ch {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if ch.value < 0x20 {
          let hex = String(ch.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(ch)
        }
      }
    }
    return out + "\""
  }

  /// `3`, `"abc"`, `true`, `null`, `an array`, `an object` (long strings are cut).
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n): return n
    case .string(let s): return quote(s.count > 40 ? String(s.prefix(40)) + "…" : s)
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
