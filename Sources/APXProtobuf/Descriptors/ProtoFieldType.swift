/// The value type of a protobuf field, numbered as in `FieldDescriptorProto.Type`.
public enum ProtoFieldType: Int, Sendable, Hashable, CaseIterable {
  case double = 1
  case float = 2
  case int64 = 3
  case uint64 = 4
  case int32 = 5
  case fixed64 = 6
  case fixed32 = 7
  case bool = 8
  case string = 9
  case group = 10
  case message = 11
  case bytes = 12
  case uint32 = 13
  case `enum` = 14
  case sfixed32 = 15
  case sfixed64 = 16
  case sint32 = 17
  case sint64 = 18

  /// The name used in .proto files (`int32`, `string`, `message`...).
  public var protoName: String {
    switch self {
    case .double: "double"
    case .float: "float"
    case .int64: "int64"
    case .uint64: "uint64"
    case .int32: "int32"
    case .fixed64: "fixed64"
    case .fixed32: "fixed32"
    case .bool: "bool"
    case .string: "string"
    case .group: "group"
    case .message: "message"
    case .bytes: "bytes"
    case .uint32: "uint32"
    case .enum: "enum"
    case .sfixed32: "sfixed32"
    case .sfixed64: "sfixed64"
    case .sint32: "sint32"
    case .sint64: "sint64"
    }
  }

  /// The wire type a single (unpacked) value of this type uses.
  var wireType: WireType {
    switch self {
    case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool, .enum: .varint
    case .fixed64, .sfixed64, .double: .fixed64
    case .fixed32, .sfixed32, .float: .fixed32
    case .string, .bytes, .message: .lengthDelimited
    case .group: .startGroup
    }
  }

  /// Whether repeated values of this type may be packed into one length-delimited record.
  var isPackable: Bool {
    switch self {
    case .string, .bytes, .message, .group: false
    default: true
    }
  }
}

/// The six wire types of the protobuf binary format.
enum WireType: UInt8, Sendable {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case startGroup = 3
  case endGroup = 4
  case fixed32 = 5

  /// A human name for error messages.
  var label: String {
    switch self {
    case .varint: "0 (varint)"
    case .fixed64: "1 (64-bit)"
    case .lengthDelimited: "2 (length-delimited)"
    case .startGroup: "3 (start group)"
    case .endGroup: "4 (end group)"
    case .fixed32: "5 (32-bit)"
    }
  }
}
