/// The resolved, immutable tables the codec walks. Messages and enums refer
/// to each other by index into `PoolStorage`, so recursive message types need
/// no reference cycles.

/// Which well-known type (google.protobuf.*) a message is, for its special JSON form.
enum WellKnownType: Sendable, Hashable {
  case none
  case any, timestamp, duration, fieldMask, empty
  case structValue, value, listValue
  case doubleValue, floatValue, int64Value, uint64Value, int32Value, uint32Value
  case boolValue, stringValue, bytesValue

  init(fullName: String) {
    switch fullName {
    case "google.protobuf.Any": self = .any
    case "google.protobuf.Timestamp": self = .timestamp
    case "google.protobuf.Duration": self = .duration
    case "google.protobuf.FieldMask": self = .fieldMask
    case "google.protobuf.Empty": self = .empty
    case "google.protobuf.Struct": self = .structValue
    case "google.protobuf.Value": self = .value
    case "google.protobuf.ListValue": self = .listValue
    case "google.protobuf.DoubleValue": self = .doubleValue
    case "google.protobuf.FloatValue": self = .floatValue
    case "google.protobuf.Int64Value": self = .int64Value
    case "google.protobuf.UInt64Value": self = .uint64Value
    case "google.protobuf.Int32Value": self = .int32Value
    case "google.protobuf.UInt32Value": self = .uint32Value
    case "google.protobuf.BoolValue": self = .boolValue
    case "google.protobuf.StringValue": self = .stringValue
    case "google.protobuf.BytesValue": self = .bytesValue
    default: self = .none
    }
  }

  /// The scalar type wrapped by a wrapper message (field 1), if this is one.
  var wrappedType: ProtoFieldType? {
    switch self {
    case .doubleValue: .double
    case .floatValue: .float
    case .int64Value: .int64
    case .uint64Value: .uint64
    case .int32Value: .int32
    case .uint32Value: .uint32
    case .boolValue: .bool
    case .stringValue: .string
    case .bytesValue: .bytes
    default: nil
    }
  }
}

/// One field, with everything the codec needs precomputed.
struct FieldNode: Sendable {
  var name: String
  var jsonName: String
  var number: Int32
  var type: ProtoFieldType
  var isRepeated: Bool
  /// Repeated scalars are written packed (they are always accepted both ways).
  var isPacked: Bool
  /// Explicit presence: set-to-default is still emitted and written.
  var hasPresence: Bool
  /// Index into the message's `oneofs`, or -1.
  var oneofIndex: Int
  /// Index of the message (message/group) or enum type in the pool, or -1.
  var typeIndex: Int
  var isMap: Bool
  /// Full type name for messages and enums (no leading dot), for messages.
  var typeName: String
}

/// One oneof: its name and its member field indices.
struct OneofNode: Sendable {
  var name: String
  var fieldIndices: [Int]
  /// A proto3 `optional` field's synthetic oneof (never a conflict source).
  var isSynthetic: Bool
}

/// A message type's fields with lookup tables by number and by name.
final class MessageNode: Sendable {
  let fullName: String
  let name: String
  let fileName: String
  /// Sorted by field number (the order of output keys and of written fields).
  let fields: [FieldNode]
  let oneofs: [OneofNode]
  let isMapEntry: Bool
  let wellKnown: WellKnownType
  /// Dense table number -> field index + 1 (0 = unknown) for small numbers.
  let denseNumbers: [Int32]
  /// Fallback for field numbers beyond the dense table.
  let sparseNumbers: [Int32: Int]
  /// JSON name and proto name -> field index.
  let byName: [String: Int]

  init(
    fullName: String, name: String, fileName: String, fields: [FieldNode], oneofs: [OneofNode],
    isMapEntry: Bool
  ) {
    self.fullName = fullName
    self.name = name
    self.fileName = fileName
    self.fields = fields
    self.oneofs = oneofs
    self.isMapEntry = isMapEntry
    self.wellKnown = WellKnownType(fullName: fullName)
    let denseLimit: Int32 = 512
    var dense = [Int32](repeating: 0, count: Int(min(fields.map(\.number).max() ?? 0, denseLimit)) + 1)
    var sparse: [Int32: Int] = [:]
    var names: [String: Int] = [:]
    for (i, f) in fields.enumerated() {
      if f.number <= denseLimit && f.number >= 0 { dense[Int(f.number)] = Int32(i + 1) } else { sparse[f.number] = i }
      names[f.name] = i
    }
    // JSON names win over proto names when they collide (protoc forbids real clashes).
    for (i, f) in fields.enumerated() { names[f.jsonName] = i }
    self.denseNumbers = dense
    self.sparseNumbers = sparse
    self.byName = names
  }

  /// The index of the field with this number, if declared.
  @inline(__always)
  func fieldIndex(number: Int32) -> Int? {
    if number >= 0 && Int(number) < denseNumbers.count {
      let v = denseNumbers[Int(number)]
      return v == 0 ? nil : Int(v) - 1
    }
    return sparseNumbers[number]
  }
}

/// An enum type with lookups both ways.
final class EnumNode: Sendable {
  let fullName: String
  let values: [(name: String, number: Int32)]
  let byName: [String: Int32]
  let byNumber: [Int32: String]
  /// Closed (proto2) enums reject numbers that are not declared.
  let isClosed: Bool

  init(fullName: String, values: [(name: String, number: Int32)], isClosed: Bool) {
    self.fullName = fullName
    self.values = values
    var byName: [String: Int32] = [:]
    var byNumber: [Int32: String] = [:]
    for v in values {
      byName[v.name] = v.number
      // With allow_alias the first name declared for a number is the one printed.
      if byNumber[v.number] == nil { byNumber[v.number] = v.name }
    }
    self.byName = byName
    self.byNumber = byNumber
    self.isClosed = isClosed
  }
}

/// A service and its methods, with message types resolved to indices.
struct ServiceNode: Sendable {
  struct Method: Sendable {
    var name: String
    var inputIndex: Int
    var outputIndex: Int
    var clientStreaming: Bool
    var serverStreaming: Bool
    /// The method's options declare it free of side effects or idempotent.
    var idempotent: Bool
  }
  var fullName: String
  var methods: [Method]
}

/// Everything a pool knows; shared by every descriptor handed out.
final class PoolStorage: Sendable {
  let messages: [MessageNode]
  let enums: [EnumNode]
  let services: [ServiceNode]
  let messageIndex: [String: Int]
  let enumIndex: [String: Int]
  let fileNames: [String]

  init(
    messages: [MessageNode], enums: [EnumNode], services: [ServiceNode], fileNames: [String]
  ) {
    self.messages = messages
    self.enums = enums
    self.services = services
    self.fileNames = fileNames
    var mi: [String: Int] = [:]
    for (i, m) in messages.enumerated() { mi[m.fullName] = i }
    var ei: [String: Int] = [:]
    for (i, e) in enums.enumerated() { ei[e.fullName] = i }
    self.messageIndex = mi
    self.enumIndex = ei
  }
}
