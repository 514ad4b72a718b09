import APXCore

/// Reads one scalar from the wire and renders it in the proto3 JSON mapping:
/// 64-bit integers as strings, floats in Python's shortest form with
/// `"NaN"`/`"Infinity"`, bytes as padded standard base64, enums by name
/// (unknown numbers as numbers).
enum ScalarToJSON {
  /// The value and whether it equals the type's default (for implicit presence).
  static func read(
    _ type: ProtoFieldType, _ r: inout WireReader, enumNode: EnumNode?
  ) throws(CodecError) -> (JSONValue, isDefault: Bool) {
    do throws(WireFailure) {
      switch type {
      case .int32:
        let v = Int32(truncatingIfNeeded: try r.varint())
        return (.number(String(v)), v == 0)
      case .int64:
        let v = Int64(bitPattern: try r.varint())
        return (.string(String(v)), v == 0)
      case .uint32:
        let v = UInt32(truncatingIfNeeded: try r.varint())
        return (.number(String(v)), v == 0)
      case .uint64:
        let v = try r.varint()
        return (.string(String(v)), v == 0)
      case .sint32:
        let raw = UInt32(truncatingIfNeeded: try r.varint())
        let v = Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        return (.number(String(v)), v == 0)
      case .sint64:
        let raw = try r.varint()
        let v = Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
        return (.string(String(v)), v == 0)
      case .bool:
        let v = try r.varint() != 0
        return (.bool(v), !v)
      case .enum:
        let v = Int32(truncatingIfNeeded: try r.varint())
        guard let enumNode else { return (.number(String(v)), v == 0) }
        if enumNode.fullName == "google.protobuf.NullValue" { return (.null, v == 0) }
        if let name = enumNode.byNumber[v] { return (.string(name), v == 0) }
        return (.number(String(v)), v == 0)
      case .fixed32:
        let v = try r.fixed32()
        return (.number(String(v)), v == 0)
      case .sfixed32:
        let v = Int32(bitPattern: try r.fixed32())
        return (.number(String(v)), v == 0)
      case .float:
        let bits = try r.fixed32()
        return (floatJSON(Float(bitPattern: bits)), bits == 0)
      case .fixed64:
        let v = try r.fixed64()
        return (.string(String(v)), v == 0)
      case .sfixed64:
        let v = Int64(bitPattern: try r.fixed64())
        return (.string(String(v)), v == 0)
      case .double:
        let bits = try r.fixed64()
        return (doubleJSON(Double(bitPattern: bits)), bits == 0)
      case .string:
        let range = try r.lengthDelimited()
        guard let s = String(validating: UnsafeBufferPointer(rebasing: r.base[range]), as: UTF8.self) else {
          throw WireFailure(message: "string field holds invalid UTF-8")
        }
        return (.string(s), range.isEmpty)
      case .bytes:
        let range = try r.lengthDelimited()
        return (.string(Base64.encode(UnsafeBufferPointer(rebasing: r.base[range]))), range.isEmpty)
      case .message, .group:
        throw WireFailure(message: "\(type.protoName) is not a scalar")
      }
    } catch {
      throw CodecError(.malformedMessage, error.message)
    }
  }

  static func floatJSON(_ v: Float) -> JSONValue {
    v.isFinite ? .number(PythonFloatText.format(v)) : .string(PythonFloatText.format(v))
  }

  static func doubleJSON(_ v: Double) -> JSONValue {
    v.isFinite ? .number(PythonFloatText.format(v)) : .string(PythonFloatText.format(v))
  }

  /// The JSON of a type's default value (for `emitDefaults`).
  static func defaultValue(_ type: ProtoFieldType, enumNode: EnumNode?) -> JSONValue {
    switch type {
    case .int32, .uint32, .sint32, .fixed32, .sfixed32: .number("0")
    case .int64, .uint64, .sint64, .fixed64, .sfixed64: .string("0")
    case .float, .double: .number("0.0")
    case .bool: .bool(false)
    case .string, .bytes: .string("")
    case .enum:
      if let enumNode {
        enumNode.fullName == "google.protobuf.NullValue"
          ? .null : (enumNode.byNumber[0].map { .string($0) } ?? .number("0"))
      } else {
        .number("0")
      }
    case .message, .group: .object([])
    }
  }
}
