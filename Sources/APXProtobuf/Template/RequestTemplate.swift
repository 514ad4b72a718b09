public import APXCore

/// Example request JSON for a message type, for `apx describe`: every field
/// with a placeholder of the right JSON type, nested messages expanded up to a
/// depth limit (recursive types stop there), well-known types in their JSON form.
extension DescriptorPool {
  /// Nested messages deeper than this print as `{}`.
  public static let templateDepthLimit = 4

  /// A JSON value that `encode(_:as:)` accepts for `type`, showing every field.
  public func template(for type: MessageDescriptor) -> JSONValue {
    TemplateBuilder(storage: type.storage).message(type.node, depth: 0)
  }
}

private struct TemplateBuilder {
  let storage: PoolStorage

  func message(_ msg: MessageNode, depth: Int) -> JSONValue {
    if msg.wellKnown != .none { return wellKnown(msg) }
    guard depth < DescriptorPool.templateDepthLimit else { return .object([]) }
    var members: [JSONMember] = []
    var oneofShown = Set<Int>()
    for field in msg.fields {
      // Show only the first member of each real oneof: setting two is an error.
      if field.oneofIndex >= 0 && !msg.oneofs[field.oneofIndex].isSynthetic {
        guard oneofShown.insert(field.oneofIndex).inserted else { continue }
      }
      members.append(JSONMember(field.jsonName, value(field, depth: depth)))
    }
    return .object(members)
  }

  private func value(_ field: FieldNode, depth: Int) -> JSONValue {
    if field.isMap {
      let entry = storage.messages[field.typeIndex]
      let key: String
      switch entry.fields[0].type {
      case .string: key = "key"
      case .bool: key = "true"
      default: key = "0"
      }
      return .object([JSONMember(key, single(entry.fields[1], depth: depth))])
    }
    let one = single(field, depth: depth)
    return field.isRepeated ? .array([one]) : one
  }

  private func single(_ field: FieldNode, depth: Int) -> JSONValue {
    switch field.type {
    case .message, .group:
      return message(storage.messages[field.typeIndex], depth: depth + 1)
    case .enum:
      let e = storage.enums[field.typeIndex]
      if e.fullName == "google.protobuf.NullValue" { return .null }
      return e.values.first.map { .string($0.name) } ?? .number("0")
    case .float, .double:
      return .number("0.0")
    default:
      return ScalarToJSON.defaultValue(field.type, enumNode: nil)
    }
  }

  private func wellKnown(_ msg: MessageNode) -> JSONValue {
    switch msg.wellKnown {
    case .timestamp: .string("2024-01-01T00:00:00Z")
    case .duration: .string("1.5s")
    case .fieldMask: .string("fieldOne,fieldTwo.nested")
    case .empty, .structValue, .none: .object([])
    case .value: .string("any JSON value")
    case .listValue: .array([])
    case .any:
      // An Any that encodes as-is when google.protobuf.Empty is loaded; `{}` (an empty Any) otherwise.
      storage.messageIndex["google.protobuf.Empty"] != nil
        ? .object([
          JSONMember("@type", .string("type.googleapis.com/google.protobuf.Empty")), JSONMember("value", .object([])),
        ]) : .object([])
    case .doubleValue, .floatValue: .number("0.0")
    case .int64Value, .uint64Value: .string("0")
    case .int32Value, .uint32Value: .number("0")
    case .boolValue: .bool(false)
    case .stringValue, .bytesValue: .string("")
    }
  }
}
