public import APXCore
public import APXProtobuf

/// Example messages made from a message type alone: every field set to a value of its type,
/// the same for one seed, in the proto3 JSON form the pool encodes.
///
/// Repeated fields hold two values and maps one entry; of a oneof only the first member is set;
/// nested messages stop at `maxDepth`, which also cuts recursive types. Well-known types get
/// their JSON forms (a Timestamp is an RFC 3339 date, a Duration `"1.500s"`), except `Any`,
/// which is left out: it would need a type to name.
public struct ProtoExample: Sendable {
  /// The seed every value is derived from.
  public var seed: UInt64
  /// How deep nested messages go; fields of message type below it are left out.
  public var maxDepth: Int

  /// Makes a generator.
  public init(seed: UInt64 = 0, maxDepth: Int = 3) {
    self.seed = seed
    self.maxDepth = maxDepth
  }

  /// The `index`-th example of `type` (a stream's messages differ by index).
  public func message(_ type: MessageDescriptor, index: Int = 0) -> JSONValue {
    message(type, path: type.fullName + "#\(index)", depth: 0) ?? .object([])
  }

  private func message(_ type: MessageDescriptor, path: String, depth: Int) -> JSONValue? {
    if type.isWellKnownType { return wellKnown(type, path: path, depth: depth) }
    var members: [JSONMember] = []
    var oneofsSet: Set<String> = []
    for field in type.fields {
      if let oneof = field.oneofName, !oneofsSet.insert(oneof).inserted { continue }
      let fieldPath = path + "." + field.name
      let value: JSONValue?
      if field.isMap {
        value = mapValue(field, path: fieldPath, depth: depth)
      } else if field.isRepeated {
        let items = (0..<2).compactMap { single(field, path: fieldPath + "[\($0)]", depth: depth) }
        value = items.isEmpty ? nil : .array(items)
      } else {
        value = single(field, path: fieldPath, depth: depth)
      }
      if let value { members.append(JSONMember(field.jsonName, value)) }
    }
    return .object(members)
  }

  private func mapValue(_ field: FieldDescriptor, path: String, depth: Int) -> JSONValue? {
    guard let entry = field.messageType, let key = entry.field(number: 1), let value = entry.field(number: 2),
      let keyValue = single(key, path: path + ".key", depth: depth),
      let valueValue = single(value, path: path + ".value", depth: depth)
    else { return nil }
    let keyText: String =
      switch keyValue {
      case .string(let s): s
      case .number(let n): n
      case .bool(let b): b ? "true" : "false"
      default: "key"
      }
    return .object([JSONMember(keyText, valueValue)])
  }

  private func single(_ field: FieldDescriptor, path: String, depth: Int) -> JSONValue? {
    let n = number(path)
    switch field.type {
    case .string: return .string("\(field.name)-\(n % 1000)")
    case .bytes: return .string(Base64.encode(Array("\(field.name)-\(n % 1000)".utf8)))
    case .bool: return .bool(n % 2 == 0)
    case .int32, .sint32, .sfixed32, .uint32, .fixed32: return .number(String(n % 1000))
    // 64-bit integers are strings in proto3 JSON.
    case .int64, .sint64, .sfixed64, .uint64, .fixed64: return .string(String(n % 1_000_000))
    case .double, .float: return .number(String(n % 1000) + ".5")
    case .enum:
      guard let values = field.enumType?.values, !values.isEmpty else { return nil }
      // The zero value is "unspecified" by convention: a set value says more.
      let chosen = values.filter { $0.number != 0 }
      let pool = chosen.isEmpty ? values : chosen
      return .string(pool[Int(n % UInt64(pool.count))].name)
    case .message, .group:
      guard let type = field.messageType, depth + 1 < maxDepth || type.isWellKnownType else { return nil }
      return message(type, path: path, depth: depth + 1)
    }
  }

  private func wellKnown(_ type: MessageDescriptor, path: String, depth: Int) -> JSONValue? {
    let n = number(path)
    switch type.fullName {
    case "google.protobuf.Timestamp":
      let day = 1 + Int(n % 28)
      return .string("2026-01-\(day < 10 ? "0" : "")\(day)T12:00:00Z")
    case "google.protobuf.Duration": return .string("\(n % 60).500s")
    case "google.protobuf.FieldMask": return .string("name")
    case "google.protobuf.Empty": return .object([])
    case "google.protobuf.Struct": return .object([JSONMember("key", .string("value-\(n % 1000)"))])
    case "google.protobuf.Value": return .string("value-\(n % 1000)")
    case "google.protobuf.ListValue": return .array([.string("value-\(n % 1000)")])
    case "google.protobuf.Any": return nil
    default:
      // The wrappers: the JSON of the value they wrap.
      guard let inner = type.field(number: 1) else { return nil }
      return single(inner, path: path, depth: depth)
    }
  }

  /// A number derived from the seed and a field's path.
  private func number(_ path: String) -> UInt64 {
    var random = SeededRandom(seed: seed, key: path)
    return random.next()
  }
}
