/// A JSON value written exactly as built: numbers keep the spelling they were given.
///
/// The demo API promises literal number text (`1.10`, `9007199254740993`) that
/// `JSONEncoder` would rewrite, so every response body is written with this type.
indirect enum JSONText: Sendable {
  case string(String)
  /// A number whose text is written verbatim (the caller guarantees it is valid JSON).
  case number(String)
  case bool(Bool)
  case null
  case array([JSONText])
  /// Members in the order given.
  case object([(String, JSONText)])

  /// An integer number.
  static func int(_ value: Int) -> JSONText { .number(String(value)) }

  /// A floating-point number in Swift's shortest round-trip spelling (`0.25`, `1.0`).
  static func double(_ value: Double) -> JSONText {
    value.isFinite ? .number(String(value)) : .null
  }

  /// Compact text, no insignificant whitespace.
  var compact: String {
    var out = ""
    write(into: &out, indent: nil, level: 0)
    return out
  }

  /// Pretty text with two-space indentation, spread over several lines.
  var pretty: String {
    var out = ""
    write(into: &out, indent: "  ", level: 0)
    return out
  }

  private func write(into out: inout String, indent: String?, level: Int) {
    switch self {
    case .string(let value): JSONText.writeString(value, into: &out)
    case .number(let text): out += text
    case .bool(let value): out += value ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      out += "["
      for (offset, item) in items.enumerated() {
        if offset > 0 { out += "," }
        JSONText.newline(into: &out, indent: indent, level: level + 1)
        item.write(into: &out, indent: indent, level: level + 1)
      }
      if !items.isEmpty { JSONText.newline(into: &out, indent: indent, level: level) }
      out += "]"
    case .object(let members):
      out += "{"
      for (offset, member) in members.enumerated() {
        if offset > 0 { out += "," }
        JSONText.newline(into: &out, indent: indent, level: level + 1)
        JSONText.writeString(member.0, into: &out)
        out += indent == nil ? ":" : ": "
        member.1.write(into: &out, indent: indent, level: level + 1)
      }
      if !members.isEmpty { JSONText.newline(into: &out, indent: indent, level: level) }
      out += "}"
    }
  }

  private static func newline(into out: inout String, indent: String?, level: Int) {
    guard let indent else { return }
    out += "\n"
    for _ in 0..<level { out += indent }
  }

  /// Writes `value` as a quoted JSON string, escaping what RFC 8259 requires.
  static func writeString(_ value: String, into out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }

  /// `value` as a quoted JSON string.
  static func quoted(_ value: String) -> String {
    var out = ""
    writeString(value, into: &out)
    return out
  }
}
