/// A message type from a `DescriptorPool`: its fields (in field-number order)
/// and oneofs. Cheap to copy; it shares the pool's tables.
public struct MessageDescriptor: Sendable, Hashable, CustomStringConvertible {
  let storage: PoolStorage
  let index: Int

  init(storage: PoolStorage, index: Int) {
    self.storage = storage
    self.index = index
  }

  var node: MessageNode { storage.messages[index] }

  /// The fully qualified name without a leading dot, e.g. `classnotes.v1.Lesson`.
  public var fullName: String { node.fullName }
  /// The short name, e.g. `Lesson`.
  public var name: String { node.name }
  /// The .proto file that declares this message.
  public var fileName: String { node.fileName }
  /// True for the synthetic `XxxEntry` type of a map field.
  public var isMapEntry: Bool { node.isMapEntry }
  /// True for google.protobuf types with a special JSON form (Timestamp, Any, wrappers...).
  public var isWellKnownType: Bool { node.wellKnown != .none }

  /// The fields, sorted by field number.
  public var fields: [FieldDescriptor] {
    node.fields.indices.map { FieldDescriptor(storage: storage, message: index, index: $0) }
  }

  /// The field with this proto name or JSON name.
  public func field(named name: String) -> FieldDescriptor? {
    node.byName[name].map { FieldDescriptor(storage: storage, message: index, index: $0) }
  }

  /// The field with this number.
  public func field(number: Int32) -> FieldDescriptor? {
    node.fieldIndex(number: number).map { FieldDescriptor(storage: storage, message: index, index: $0) }
  }

  /// The oneofs declared by the message (synthetic proto3-optional ones excluded), with member names.
  public var oneofs: [(name: String, fields: [String])] {
    node.oneofs.filter { !$0.isSynthetic }.map { o in (o.name, o.fieldIndices.map { node.fields[$0].name }) }
  }

  public var description: String { fullName }

  public static func == (lhs: MessageDescriptor, rhs: MessageDescriptor) -> Bool {
    lhs.storage === rhs.storage && lhs.index == rhs.index
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(storage))
    hasher.combine(index)
  }
}

/// One field of a message.
public struct FieldDescriptor: Sendable, CustomStringConvertible {
  let storage: PoolStorage
  let message: Int
  let index: Int

  var node: FieldNode { storage.messages[message].fields[index] }

  /// The name in the .proto file (`created_at`).
  public var name: String { node.name }
  /// The JSON name (`createdAt`): the descriptor's json_name, or lowerCamelCase of the name.
  public var jsonName: String { node.jsonName }
  /// The field number.
  public var number: Int32 { node.number }
  /// The value type.
  public var type: ProtoFieldType { node.type }
  /// True for `repeated` fields (maps included).
  public var isRepeated: Bool { node.isRepeated }
  /// True for `map<K, V>` fields.
  public var isMap: Bool { node.isMap }
  /// True when repeated scalars are written packed.
  public var isPacked: Bool { node.isPacked }
  /// True when the field tracks presence (messages, oneof members, `optional`, proto2).
  public var hasPresence: Bool { node.hasPresence }
  /// The name of the (non-synthetic) oneof this field belongs to.
  public var oneofName: String? {
    let n = node
    guard n.oneofIndex >= 0 else { return nil }
    let o = storage.messages[message].oneofs[n.oneofIndex]
    return o.isSynthetic ? nil : o.name
  }
  /// The message type of a message, group or map field.
  public var messageType: MessageDescriptor? {
    let n = node
    guard n.type == .message || n.type == .group, n.typeIndex >= 0 else { return nil }
    return MessageDescriptor(storage: storage, index: n.typeIndex)
  }
  /// The enum type of an enum field.
  public var enumType: EnumDescriptor? {
    let n = node
    guard n.type == .enum, n.typeIndex >= 0 else { return nil }
    return EnumDescriptor(node: storage.enums[n.typeIndex])
  }

  /// `repeated string tags = 3`-style summary, for `apx describe`.
  public var description: String {
    let n = node
    var typeText = n.type == .message || n.type == .group || n.type == .enum ? n.typeName : n.type.protoName
    if n.isMap, let entry = messageType, entry.node.fields.count == 2 {
      let k = entry.node.fields[0]
      let v = entry.node.fields[1]
      let vt = v.type == .message || v.type == .enum ? v.typeName : v.type.protoName
      typeText = "map<\(k.type.protoName), \(vt)>"
      return "\(typeText) \(n.name) = \(n.number)"
    }
    let label =
      n.isRepeated ? "repeated " : (n.hasPresence && oneofName == nil && n.type != .message ? "optional " : "")
    return "\(label)\(typeText) \(n.name) = \(n.number)"
  }
}

/// An enum type: its values in declaration order.
public struct EnumDescriptor: Sendable {
  let node: EnumNode

  /// The fully qualified name without a leading dot.
  public var fullName: String { node.fullName }
  /// `(name, number)` pairs in declaration order.
  public var values: [(name: String, number: Int32)] { node.values }
  /// The first name declared for `number`.
  public func name(of number: Int32) -> String? { node.byNumber[number] }
  /// The number of the value called `name`.
  public func number(of name: String) -> Int32? { node.byName[name] }
}

/// A resolved RPC method: its message types and streaming shape.
public struct MethodInfo: Sendable {
  /// Fully qualified service name, e.g. `classnotes.v1.ClassNotesAPI`.
  public var service: String
  /// Method name, e.g. `CreateLesson`.
  public var name: String
  /// The request message type.
  public var input: MessageDescriptor
  /// The response message type.
  public var output: MessageDescriptor
  /// True when the client sends a stream of requests.
  public var clientStreaming: Bool
  /// True when the server answers with a stream of responses.
  public var serverStreaming: Bool
  /// The schema declares the method safe to call twice: `option idempotency_level` is
  /// `NO_SIDE_EFFECTS` or `IDEMPOTENT`.
  public var idempotent: Bool = false

  /// The gRPC path `/package.Service/Method`.
  public var path: String { "/\(service)/\(name)" }
}
