/// The syntax of HTTP header fields (RFC 9110 §5.1, §5.5): a name is a non-empty token, a value
/// holds no control characters but tab. Checked before anything is sent: a CR or LF in a value
/// would split the request (header injection), and servers and HTTP libraries reject both
/// anyway, so apx says so as a usage or definition error instead of failing on the network.
public enum HeaderSyntax {
  /// Why `name` cannot be a header name, or nil when it can.
  public static func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "a header name cannot be empty" }
    for scalar in name.unicodeScalars where !isTokenCharacter(scalar) {
      return "the header name \"\(printable(name))\" contains \(describe(scalar)), which header names cannot hold"
        + " (letters, digits and !#$%&'*+-.^_`|~ only)"
    }
    return nil
  }

  /// Why `value` cannot be the value of header `name`, or nil when it can.
  public static func valueProblem(_ value: String, name: String) -> String? {
    for scalar in value.unicodeScalars where scalar == "\u{7F}" || (scalar.value < 0x20 && scalar != "\t") {
      return
        "the value of the header \"\(printable(name))\" contains \(describe(scalar)), which header values cannot hold"
    }
    return nil
  }

  /// Why `subprotocol` cannot be offered in a WebSocket handshake, or nil: RFC 6455 (4.1)
  /// makes each one a token, so a comma or a space would offer two, and a CR or LF would
  /// add a header. The value itself is not shown: `name.TOKEN` carries a credential.
  public static func subprotocolProblem(_ subprotocol: String) -> String? {
    if subprotocol.isEmpty { return "a WebSocket subprotocol cannot be empty" }
    for scalar in subprotocol.unicodeScalars where !isTokenCharacter(scalar) {
      return "a WebSocket subprotocol contains \(describe(scalar)), which subprotocols cannot hold"
        + " (RFC 6455 tokens: letters, digits and !#$%&'*+-.^_`|~ only)"
    }
    return nil
  }

  /// The first problem of a header field, or nil.
  public static func problem(name: String, value: String) -> String? {
    nameProblem(name) ?? valueProblem(value, name: name)
  }

  /// RFC 9110 `tchar`.
  static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": return true
    case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
    default: return false
    }
  }

  static func describe(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\r": return "a carriage return (CR)"
    case "\n": return "a line feed (LF)"
    case " ": return "a space"
    case "\t": return "a tab"
    case "\0": return "a NUL byte"
    default:
      if scalar.value < 0x20 || scalar.value == 0x7F {
        return "the control character U+"
          + String(String(scalar.value, radix: 16, uppercase: true).suffix(4))
          .leftPadded(to: 4)
      }
      return "'\(scalar)'"
    }
  }

  /// The text with control characters shown as escapes, for messages.
  static func printable(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\r": out += "\\r"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
