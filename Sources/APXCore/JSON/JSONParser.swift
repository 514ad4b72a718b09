/// A syntax error in JSON text, with where it happened.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public var location: SourceLocation
  /// Byte offset of the error in the input.
  public var offset: Int
  /// The text nests deeper than `JSONParser.maxDepth`: well-formed, perhaps, but refused.
  public var tooDeep: Bool = false

  public var description: String { "\(location): \(message)" }
}

/// A parsed document with the source location of every value, keyed by its path.
public struct JSONDocument: Sendable {
  public var value: JSONValue
  public var locations: [[JSONPathComponent]: SourceLocation]

  /// The location of the value at `path`, or of its nearest ancestor that has one.
  public func location(of path: [JSONPathComponent]) -> SourceLocation? {
    var p = path
    while true {
      if let loc = locations[p] { return loc }
      if p.isEmpty { return nil }
      p.removeLast()
    }
  }
}

/// A strict RFC 8259 parser that builds `JSONValue`s, preserving member order
/// and number text. Hand-written: Foundation's JSONSerialization loses both.
public struct JSONParser {
  /// Parses one JSON text (surrounding whitespace allowed).
  public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    try parseDocument(bytes, recordLocations: false).value
  }

  /// Parses one JSON text from a string.
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// Parses one JSON text and records where each value starts.
  public static func parseDocument(_ bytes: [UInt8], recordLocations: Bool = true)
    throws(JSONSyntaxError) -> JSONDocument
  {
    var state = State(bytes: bytes, record: recordLocations)
    var path: [JSONPathComponent] = []
    state.skipWhitespace()
    let value = try state.parseValue(path: &path, depth: 0)
    state.skipWhitespace()
    if state.index < bytes.count {
      throw state.error("unexpected \(state.describeCurrent()) after the end of the JSON value")
    }
    return JSONDocument(value: value, locations: state.locations)
  }

  /// Parses one JSON text but builds, of the object under the top-level key `key`, only the
  /// members named in `kept`: the others are checked as strictly as by `parse` and stand as
  /// `.null`, so their names (and duplicates) stay visible. For a call through a large registry
  /// file, which needs one endpoint out of hundreds.
  public static func parse(_ bytes: [UInt8], skimming key: String, keeping kept: Set<String>)
    throws(JSONSyntaxError) -> JSONValue
  {
    try parse(bytes, skimming: [key], keeping: kept)
  }

  /// `parse(_:skimming:keeping:)` for several top-level keys at once (a registry's `endpoints`
  /// and `schemas`): of each, only the members named in `kept` are built.
  public static func parse(_ bytes: [UInt8], skimming keys: Set<String>, keeping kept: Set<String>)
    throws(JSONSyntaxError) -> JSONValue
  {
    var state = State(bytes: bytes, record: false)
    state.skim = (keys, kept)
    var path: [JSONPathComponent] = []
    state.skipWhitespace()
    let value = try state.parseValue(path: &path, depth: 0)
    state.skipWhitespace()
    if state.index < bytes.count {
      throw state.error("unexpected \(state.describeCurrent()) after the end of the JSON value")
    }
    return value
  }

  /// Nesting beyond this depth is rejected instead of overflowing the stack.
  public static let maxDepth = 512

  private struct State {
    let bytes: [UInt8]
    let record: Bool
    var index = 0
    var line = 1
    var lineStart = 0
    var locations: [[JSONPathComponent]: SourceLocation] = [:]
    /// See `parse(_:skimming:keeping:)`.
    var skim: (keys: Set<String>, kept: Set<String>)?

    init(bytes: [UInt8], record: Bool) {
      self.bytes = bytes
      self.record = record
    }

    var currentLocation: SourceLocation {
      // Columns count Unicode scalars: skip UTF-8 continuation bytes.
      var column = 1
      var i = lineStart
      while i < index {
        if bytes[i] & 0xC0 != 0x80 { column += 1 }
        i += 1
      }
      return SourceLocation(line: line, column: column)
    }

    /// Where `locationOfCurrentValue()` last counted to, so recording every
    /// value's location stays linear on long (minified) lines instead of
    /// rescanning from the line start each time.
    var columnCache = (index: 0, column: 1)

    /// `currentLocation`, counted incrementally from the previous call.
    mutating func locationOfCurrentValue() -> SourceLocation {
      var (i, column) = columnCache
      if i < lineStart || i > index {
        i = lineStart
        column = 1
      }
      while i < index {
        if bytes[i] & 0xC0 != 0x80 { column += 1 }
        i += 1
      }
      columnCache = (i, column)
      return SourceLocation(line: line, column: column)
    }

    func error(_ message: String) -> JSONSyntaxError {
      JSONSyntaxError(message: message, location: currentLocation, offset: index)
    }

    func tooDeep() -> JSONSyntaxError {
      var e = error("nesting deeper than \(JSONParser.maxDepth) levels")
      e.tooDeep = true
      return e
    }

    func describeCurrent() -> String {
      guard index < bytes.count else { return "end of input" }
      let b = bytes[index]
      if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
      return String(format: b)
    }

    private func String(format b: UInt8) -> Swift.String {
      let hex = Swift.String(b, radix: 16, uppercase: true)
      return "byte 0x" + (hex.count == 1 ? "0" + hex : hex)
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0D: index += 1
        case 0x0A:
          index += 1
          line += 1
          lineStart = index
        default: return
        }
      }
    }

    mutating func parseValue(path: inout [JSONPathComponent], depth: Int) throws(JSONSyntaxError)
      -> JSONValue
    {
      guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
      if record { locations[path] = locationOfCurrentValue() }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        guard depth < JSONParser.maxDepth else { throw tooDeep() }
        return try parseObject(path: &path, depth: depth + 1)
      case UInt8(ascii: "["):
        guard depth < JSONParser.maxDepth else { throw tooDeep() }
        return try parseArray(path: &path, depth: depth + 1)
      case UInt8(ascii: "\""):
        return .string(try parseString())
      case UInt8(ascii: "t"):
        try expectLiteral("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try expectLiteral("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try expectLiteral("null")
        return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return .number(try parseNumber())
      default:
        throw error("unexpected \(describeCurrent()), expected a value")
      }
    }

    mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
      let count = word.utf8CodeUnitCount
      let matches = word.withUTF8Buffer { buf -> Bool in
        guard index + count <= bytes.count else { return false }
        for i in 0..<count where bytes[index + i] != buf[i] { return false }
        return true
      }
      guard matches else { throw error("unexpected \(describeCurrent()), expected a value") }
      index += count
    }

    mutating func parseObject(path: inout [JSONPathComponent], depth: Int) throws(JSONSyntaxError)
      -> JSONValue
    {
      index += 1
      var members: [JSONMember] = []
      // The root object is parsed at depth 1, its members' values at depth 2.
      let skimmed =
        depth == 2 && path.count == 1
        && skim.map { skim in skim.keys.contains { path[0] == .key($0) } } == true
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
          throw error("unexpected \(describeCurrent()), expected a string key in double quotes")
        }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
          throw error("unexpected \(describeCurrent()), expected ':' after the key \"\(key)\"")
        }
        index += 1
        skipWhitespace()
        if skimmed, let skim, !skim.kept.contains(key) {
          try skipValue(depth: depth)
          members.append(JSONMember(key, .null))
        } else {
          path.append(.key(key))
          let value = try parseValue(path: &path, depth: depth)
          path.removeLast()
          members.append(JSONMember(key, value))
        }
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members)
        }
        throw error("unexpected \(describeCurrent()), expected ',' or '}'")
      }
    }

    mutating func parseArray(path: inout [JSONPathComponent], depth: Int) throws(JSONSyntaxError)
      -> JSONValue
    {
      index += 1
      var items: [JSONValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        skipWhitespace()
        path.append(.index(items.count))
        let value = try parseValue(path: &path, depth: depth)
        path.removeLast()
        items.append(value)
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(items)
        }
        throw error("unexpected \(describeCurrent()), expected ',' or ']'")
      }
    }

    /// Checks one value as `parseValue` would, without building it: no allocation.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
      guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
      switch bytes[index] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard depth < JSONParser.maxDepth else { throw tooDeep() }
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
          index += 1
          return
        }
        while true {
          skipWhitespace()
          if isObject {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
              throw error("unexpected \(describeCurrent()), expected a string key in double quotes")
            }
            try skipString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
              throw error("unexpected \(describeCurrent()), expected ':' after a key")
            }
            index += 1
            skipWhitespace()
          }
          try skipValue(depth: depth + 1)
          skipWhitespace()
          let expected = isObject ? "',' or '}'" : "',' or ']'"
          guard index < bytes.count else { throw error("unexpected end of input, expected \(expected)") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          if bytes[index] == close {
            index += 1
            return
          }
          throw error("unexpected \(describeCurrent()), expected \(expected)")
        }
      case UInt8(ascii: "\""): try skipString()
      case UInt8(ascii: "t"): try expectLiteral("true")
      case UInt8(ascii: "f"): try expectLiteral("false")
      case UInt8(ascii: "n"): try expectLiteral("null")
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
      default: throw error("unexpected \(describeCurrent()), expected a value")
      }
    }

    /// Checks one string as `parseString` would, without building it.
    mutating func skipString() throws(JSONSyntaxError) {
      index += 1  // opening quote
      while index < bytes.count {
        let b = bytes[index]
        if b == UInt8(ascii: "\"") {
          index += 1
          return
        }
        if b < 0x20 { throw error("control character \(String(format: b)) inside a string; escape it") }
        index += 1
        guard b == UInt8(ascii: "\\") else { continue }
        guard index < bytes.count else { break }
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          index += 1
          _ = try parseHex4()
        default:
          throw error("invalid escape '\\\(Character(Unicode.Scalar(bytes[index])))' in a string")
        }
      }
      throw error("unterminated string")
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> String {
      let start = index
      try skipNumber()
      return Swift.String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Checks one number's syntax and moves past it.
    mutating func skipNumber() throws(JSONSyntaxError) {
      func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '-'") }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
        if index < bytes.count, isDigit(bytes[index]) { throw error("numbers may not have leading zeros") }
      } else {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit after '.'") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
      if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs a digit in its exponent") }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
      index += 1  // opening quote
      let start = index
      // Fast path: no escapes.
      while index < bytes.count {
        let b = bytes[index]
        if b == UInt8(ascii: "\"") {
          let s = Swift.String(decoding: bytes[start..<index], as: UTF8.self)
          index += 1
          return s
        }
        if b == UInt8(ascii: "\\") { break }
        if b < 0x20 { throw error("control character \(String(format: b)) inside a string; escape it") }
        index += 1
      }
      var scratch = Array(bytes[start..<index])
      while index < bytes.count {
        let b = bytes[index]
        if b == UInt8(ascii: "\"") {
          index += 1
          return Swift.String(decoding: scratch, as: UTF8.self)
        }
        if b < 0x20 { throw error("control character \(String(format: b)) inside a string; escape it") }
        if b != UInt8(ascii: "\\") {
          scratch.append(b)
          index += 1
          continue
        }
        index += 1
        guard index < bytes.count else { break }
        let e = bytes[index]
        index += 1
        switch e {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try parseHex4()
          if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by \u and a low surrogate.
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
              index += 2
              let low = try parseHex4()
              if (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
              } else {
                appendScalar(0xFFFD, to: &scratch)
                scalar = low
              }
            } else {
              scalar = 0xFFFD
            }
          } else if (0xDC00...0xDFFF).contains(scalar) {
            scalar = 0xFFFD
          }
          appendScalar(scalar, to: &scratch)
        default:
          index -= 1
          throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
        }
      }
      throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
      var v: UInt32 = 0
      for _ in 0..<4 {
        let b = bytes[index]
        let d: UInt32
        switch b {
        case 0x30...0x39: d = UInt32(b - 0x30)
        case 0x41...0x46: d = UInt32(b - 0x41 + 10)
        case 0x61...0x66: d = UInt32(b - 0x61 + 10)
        default: throw error("\\u needs four hex digits")
        }
        v = v << 4 | d
        index += 1
      }
      return v
    }

    func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
      let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
      out.append(contentsOf: Swift.String(Character(scalar)).utf8)
    }
  }
}
