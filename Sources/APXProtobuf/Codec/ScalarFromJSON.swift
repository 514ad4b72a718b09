import APXCore

/// Converts one JSON value to a protobuf scalar following the proto3 JSON
/// mapping: integers from numbers or numeric strings, 64-bit values from
/// either, floats from numbers or `"NaN"`/`"Infinity"`/`"-Infinity"`, enums
/// by name or number, bytes from standard or URL-safe base64.
enum ScalarFromJSON {
  static func expected(_ what: String, _ value: JSONValue) -> CodecError {
    .invalidJSON("expected \(what), got \(JSONSnippet.describe(value))")
  }

  static func signed(_ value: JSONValue, bits: Int, typeName: String) throws(CodecError) -> Int64 {
    let text: String
    switch value {
    case .number(let t): text = t
    case .string(let t): text = t
    default: throw expected("an integer (\(typeName))", value)
    }
    guard let v = JSONNumberText.int64(text) else {
      throw expected("an integer (\(typeName))", value)
    }
    if bits == 32 && (v < Int64(Int32.min) || v > Int64(Int32.max)) {
      throw .invalidJSON("\(JSONSnippet.describe(value)) is out of range for \(typeName) (-2147483648...2147483647)")
    }
    return v
  }

  static func unsigned(_ value: JSONValue, bits: Int, typeName: String) throws(CodecError) -> UInt64 {
    let text: String
    switch value {
    case .number(let t): text = t
    case .string(let t): text = t
    default: throw expected("a non-negative integer (\(typeName))", value)
    }
    guard let v = JSONNumberText.uint64(text) else {
      throw expected("a non-negative integer (\(typeName))", value)
    }
    if bits == 32 && v > UInt64(UInt32.max) {
      throw .invalidJSON("\(JSONSnippet.describe(value)) is out of range for \(typeName) (0...4294967295)")
    }
    return v
  }

  static func double(_ value: JSONValue, typeName: String) throws(CodecError) -> Double {
    switch value {
    case .number(let t):
      if let v = JSONNumberText.double(t) { return v }
      throw .invalidJSON("\(t) is out of range for \(typeName)")
    case .string(let t):
      switch t {
      case "NaN": return .nan
      case "Infinity": return .infinity
      case "-Infinity": return -.infinity
      default:
        if let v = JSONNumberText.double(t) { return v }
      }
    default: break
    }
    throw expected("a number or \"NaN\", \"Infinity\", \"-Infinity\" (\(typeName))", value)
  }

  static func float(_ value: JSONValue) throws(CodecError) -> Float {
    let d = try double(value, typeName: "float")
    // Values just above FLT_MAX that round to it (json_format prints FLT_MAX as 3.4028235e+38) are fine.
    if d.isFinite && !Float(d).isFinite {
      throw .invalidJSON("\(JSONSnippet.describe(value)) is out of range for float")
    }
    return Float(d)
  }

  static func bool(_ value: JSONValue) throws(CodecError) -> Bool {
    if case .bool(let b) = value { return b }
    throw expected("true or false", value)
  }

  static func string(_ value: JSONValue) throws(CodecError) -> String {
    if case .string(let s) = value { return s }
    throw expected("a string value", value)
  }

  static func bytes(_ value: JSONValue) throws(CodecError) -> [UInt8] {
    guard case .string(let s) = value else { throw expected("a base64 string", value) }
    guard let b = Base64.decode(s) else {
      throw .invalidJSON("\(JSONSnippet.describe(value)) is not valid base64 (standard or URL-safe)")
    }
    return b
  }

  static func enumNumber(_ value: JSONValue, _ e: EnumNode) throws(CodecError) -> Int32 {
    switch value {
    case .string(let name):
      if let n = e.byName[name] { return n }
      if let n = Int32(name), !e.isClosed || e.byNumber[n] != nil { return n }
      throw .invalidJSON(
        "\(JSONSnippet.quote(name)) is not a value of enum \(e.fullName)",
        hint: NameSuggestions.hint(for: name, in: e.values.map(\.name), kind: "value"))
    case .number(let t):
      guard let v = JSONNumberText.int64(t), let n = Int32(exactly: v) else {
        throw .invalidJSON("\(t) is not a valid enum number for \(e.fullName)")
      }
      if e.isClosed && e.byNumber[n] == nil {
        throw .invalidJSON(
          "\(t) is not a value of closed enum \(e.fullName)",
          hint: NameSuggestions.hint(for: t, in: e.values.map(\.name), kind: "value"))
      }
      return n
    case .null where e.fullName == "google.protobuf.NullValue":
      return 0
    default:
      throw expected("an enum name of \(e.fullName) (or its number)", value)
    }
  }

  /// The wire bits of a numeric scalar (varint, fixed32 or fixed64 payload).
  /// `enumNode` is needed only for enums.
  static func bits(_ type: ProtoFieldType, _ value: JSONValue, enumNode: EnumNode?) throws(CodecError) -> UInt64 {
    switch type {
    case .int32, .int64:
      return UInt64(bitPattern: try signed(value, bits: type == .int32 ? 32 : 64, typeName: type.protoName))
    case .sint32:
      return UInt64(WireWriter.zigZag32(Int32(try signed(value, bits: 32, typeName: "sint32"))))
    case .sint64:
      return WireWriter.zigZag64(try signed(value, bits: 64, typeName: "sint64"))
    case .sfixed32:
      return UInt64(UInt32(bitPattern: Int32(try signed(value, bits: 32, typeName: "sfixed32"))))
    case .sfixed64:
      return UInt64(bitPattern: try signed(value, bits: 64, typeName: "sfixed64"))
    case .uint32, .fixed32:
      return try unsigned(value, bits: 32, typeName: type.protoName)
    case .uint64, .fixed64:
      return try unsigned(value, bits: 64, typeName: type.protoName)
    case .bool:
      return try bool(value) ? 1 : 0
    case .float:
      return UInt64(try float(value).bitPattern)
    case .double:
      return try double(value, typeName: "double").bitPattern
    case .enum:
      guard let enumNode else { throw CodecError(.invalidSchema, "enum field without an enum type") }
      return UInt64(bitPattern: Int64(try enumNumber(value, enumNode)))
    case .string, .bytes, .message, .group:
      throw CodecError(.internalInconsistency, "\(type.protoName) is not a numeric scalar")
    }
  }
}
