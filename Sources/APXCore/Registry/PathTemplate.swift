/// A REST path with `{name}` placeholders, e.g. `/api/v2/imports/{job_id}`.
public struct PathTemplate: Sendable, Hashable {
  enum Part: Sendable, Hashable {
    case literal(String)
    case placeholder(String)
  }

  let parts: [Part]

  /// Parses the template; unbalanced or empty braces are errors.
  public init(_ text: String) throws(APXError) {
    var parts: [Part] = []
    var literal = ""
    var iterator = text.makeIterator()
    while let ch = iterator.next() {
      if ch == "{" {
        var name = ""
        var closed = false
        while let c = iterator.next() {
          if c == "}" { closed = true; break }
          if c == "{" { throw APXError(.invalidDefinition, "nested '{' in path \"\(text)\"") }
          name.append(c)
        }
        guard closed else {
          throw APXError(.invalidDefinition, "unclosed '{' in path \"\(text)\"", hint: "write placeholders as {name}")
        }
        guard !name.isEmpty else { throw APXError(.invalidDefinition, "empty {} in path \"\(text)\"") }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        literal = ""
        parts.append(.placeholder(name))
      } else if ch == "}" {
        throw APXError(.invalidDefinition, "unmatched '}' in path \"\(text)\"", hint: "write placeholders as {name}")
      } else {
        literal.append(ch)
      }
    }
    if !literal.isEmpty { parts.append(.literal(literal)) }
    self.parts = parts
  }

  /// Placeholder names in order of appearance.
  public var placeholders: [String] {
    parts.compactMap { if case .placeholder(let n) = $0 { n } else { nil } }
  }

  /// The path with every placeholder replaced by its percent-encoded value.
  public func expand(_ values: [String: String]) throws(APXError) -> String {
    try expand(values, keeping: [])
  }

  /// Like `expand(_:)`, but placeholders named in `kept` stay as `{name}` for a later step
  /// (the auth step fills an `api_key` with `"in": "path"` once its secret is resolved).
  /// With `encoded`, the values are already percent-encoded (see `ParamSerializer.path`).
  func expand(_ values: [String: String], keeping kept: Set<String>, encoded: Bool = false) throws(APXError) -> String {
    var out = ""
    for part in parts {
      switch part {
      case .literal(let s): out += s
      case .placeholder(let name) where values[name] == nil && kept.contains(name):
        out += "{\(name)}"
      case .placeholder(let name):
        guard let value = values[name] else {
          throw APXError(.usage, "no value for the path parameter \"\(name)\"", hint: "pass \(name)=VALUE")
        }
        out += encoded ? value : PercentEncoding.encode(value, allowed: .pathSegment)
      }
    }
    return out
  }
}

/// RFC 3986 percent-encoding.
public enum PercentEncoding {
  /// Which characters stay unencoded.
  public enum Allowed: Sendable {
    /// Unreserved characters only: a value that must stay one path segment.
    case pathSegment
    /// Unreserved characters only, for query names and values and form fields.
    case queryComponent
  }

  /// Encodes every byte outside the unreserved set (`A-Z a-z 0-9 - . _ ~`).
  public static func encode(_ text: String, allowed: Allowed) -> String {
    let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    for b in text.utf8 {
      switch b {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        out.append(b)
      default:
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(b >> 4)])
        out.append(hex[Int(b & 0xF)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

}
