import APXCore

/// Options for JSON -> protobuf encoding.
public struct EncodeOptions: Sendable {
  /// Skip JSON members that name no field instead of failing.
  public var ignoreUnknownFields: Bool
  /// Write map entries sorted by key, as protobuf's deterministic serialization does,
  /// so equal messages give equal bytes.
  public var deterministic: Bool

  public init(ignoreUnknownFields: Bool = false, deterministic: Bool = false) {
    self.ignoreUnknownFields = ignoreUnknownFields
    self.deterministic = deterministic
  }
}

/// Writes a JSON value (proto3 JSON mapping) as protobuf wire bytes for a
/// message type, in field-number order (the order protobuf serializers use).
struct JSONToWire {
  let storage: PoolStorage
  /// Where `Any` type URLs are resolved.
  let anyTypes: PoolStorage
  let options: EncodeOptions

  func encodeMessage(_ json: JSONValue, _ msg: MessageNode, into w: inout WireWriter, depth: Int) throws(CodecError) {
    guard depth < ProtobufLimits.maxDepth else {
      throw .invalidJSON("messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    if msg.wellKnown != .none {
      try encodeWellKnown(json, msg, into: &w, depth: depth)
      return
    }
    guard case .object(let members) = json else {
      throw ScalarFromJSON.expected("a JSON object for message \(msg.fullName)", json)
    }
    try encodeFields(members, msg, into: &w, depth: depth)
  }

  /// Encodes the members of a JSON object as the fields of `msg`.
  func encodeFields(_ members: [JSONMember], _ msg: MessageNode, into w: inout WireWriter, depth: Int)
    throws(CodecError)
  {
    // (field index, member index); built then put in field order.
    var assigned: [(field: Int, member: Int)] = []
    assigned.reserveCapacity(members.count)
    var sorted = true
    for (m, member) in members.enumerated() {
      guard let f = msg.byName[member.key] else {
        if options.ignoreUnknownFields { continue }
        throw CodecError.invalidJSON(
          "unknown field \(JSONSnippet.quote(member.key)) in message \(msg.fullName)",
          hint: NameSuggestions.hint(for: member.key, in: msg.fields.map(\.jsonName), kind: "field"))
      }
      if case .null = member.value, !acceptsNull(msg.fields[f]) { continue }
      if let last = assigned.last, last.field >= f { sorted = false }
      assigned.append((f, m))
    }
    if !sorted {
      assigned.sort { $0.field != $1.field ? $0.field < $1.field : $0.member < $1.member }
      for i in 1..<assigned.count where assigned[i].field == assigned[i - 1].field {
        let a = members[assigned[i - 1].member].key
        let b = members[assigned[i].member].key
        throw CodecError.invalidJSON(
          a == b
            ? "field \(JSONSnippet.quote(a)) is set twice in message \(msg.fullName)"
            : "\(JSONSnippet.quote(a)) and \(JSONSnippet.quote(b)) both set field \(msg.fields[assigned[i].field].name) of \(msg.fullName)"
        )
      }
    }
    if !msg.oneofs.isEmpty { try checkOneofs(assigned, members, msg) }
    for (f, m) in assigned {
      let field = msg.fields[f]
      do throws(CodecError) {
        try encodeField(members[m].value, field, into: &w, depth: depth)
      } catch {
        throw error.adding(CodecError.component(key: members[m].key))
      }
    }
  }

  /// Null means "default" except where null is itself a value (Value, NullValue).
  private func acceptsNull(_ field: FieldNode) -> Bool {
    if field.isRepeated { return false }
    return isNullCarrier(field)
  }

  private func isNullCarrier(_ field: FieldNode) -> Bool {
    switch field.type {
    case .message: return storage.messages[field.typeIndex].wellKnown == .value
    case .enum: return storage.enums[field.typeIndex].fullName == "google.protobuf.NullValue"
    default: return false
    }
  }

  private func checkOneofs(_ assigned: [(field: Int, member: Int)], _ members: [JSONMember], _ msg: MessageNode)
    throws(CodecError)
  {
    var firstSet = [Int](repeating: -1, count: msg.oneofs.count)
    for (f, m) in assigned {
      let o = msg.fields[f].oneofIndex
      guard o >= 0, !msg.oneofs[o].isSynthetic else { continue }
      if firstSet[o] >= 0 {
        let other = members[firstSet[o]].key
        throw CodecError.invalidJSON(
          "\(JSONSnippet.quote(other)) and \(JSONSnippet.quote(members[m].key)) are both members of oneof '\(msg.oneofs[o].name)' in \(msg.fullName); set only one"
        )
      }
      firstSet[o] = m
    }
  }

  private func encodeField(_ value: JSONValue, _ field: FieldNode, into w: inout WireWriter, depth: Int)
    throws(CodecError)
  {
    if field.isMap {
      try encodeMap(value, field, into: &w, depth: depth)
    } else if field.isRepeated {
      guard case .array(let items) = value else {
        throw ScalarFromJSON.expected("an array for repeated field \(field.name)", value)
      }
      if field.isPacked {
        guard !items.isEmpty else { return }
        w.tag(field.number, .lengthDelimited)
        let start = w.beginLengthDelimited()
        let enumNode = field.type == .enum ? storage.enums[field.typeIndex] : nil
        for (i, item) in items.enumerated() {
          do throws(CodecError) {
            try writeRawScalar(ScalarFromJSON.bits(field.type, item, enumNode: enumNode), field.type.wireType, into: &w)
          } catch {
            throw error.adding("[\(i)]")
          }
        }
        w.endLengthDelimited(start)
      } else {
        let nullable = isNullCarrier(field)
        for (i, item) in items.enumerated() {
          do throws(CodecError) {
            if case .null = item, !nullable {
              throw CodecError.invalidJSON("null is not allowed as an element of repeated field \(field.name)")
            }
            try encodeSingular(item, field, always: true, into: &w, depth: depth)
          } catch {
            throw error.adding("[\(i)]")
          }
        }
      }
    } else {
      try encodeSingular(value, field, always: field.hasPresence, into: &w, depth: depth)
    }
  }

  @inline(__always)
  private func writeRawScalar(_ bits: UInt64, _ wireType: WireType, into w: inout WireWriter) {
    switch wireType {
    case .fixed32: w.fixed32(UInt32(truncatingIfNeeded: bits))
    case .fixed64: w.fixed64(bits)
    default: w.varint(bits)
    }
  }

  /// Writes one value with its tag; `always` is false for implicit-presence fields,
  /// whose default values are not written.
  private func encodeSingular(
    _ value: JSONValue, _ field: FieldNode, always: Bool, into w: inout WireWriter, depth: Int
  ) throws(CodecError) {
    switch field.type {
    case .message:
      w.tag(field.number, .lengthDelimited)
      let start = w.beginLengthDelimited()
      try encodeMessage(value, storage.messages[field.typeIndex], into: &w, depth: depth + 1)
      w.endLengthDelimited(start)
    case .group:
      w.tag(field.number, .startGroup)
      try encodeMessage(value, storage.messages[field.typeIndex], into: &w, depth: depth + 1)
      w.tag(field.number, .endGroup)
    case .string:
      var s = try ScalarFromJSON.string(value)
      if !always && s.isEmpty { return }
      w.tag(field.number, .lengthDelimited)
      s.withUTF8 { w.lengthDelimited($0) }
    case .bytes:
      let b = try ScalarFromJSON.bytes(value)
      if !always && b.isEmpty { return }
      w.tag(field.number, .lengthDelimited)
      w.lengthDelimited(b)
    default:
      let enumNode = field.type == .enum ? storage.enums[field.typeIndex] : nil
      let bits = try ScalarFromJSON.bits(field.type, value, enumNode: enumNode)
      if !always && bits == 0 { return }
      let wt = field.type.wireType
      w.tag(field.number, wt)
      writeRawScalar(bits, wt, into: &w)
    }
  }

  private func encodeMap(_ value: JSONValue, _ field: FieldNode, into w: inout WireWriter, depth: Int)
    throws(CodecError)
  {
    guard case .object(var members) = value else {
      throw ScalarFromJSON.expected("an object for map field \(field.name)", value)
    }
    let entry = storage.messages[field.typeIndex]
    let keyField = entry.fields[0]
    let valueField = entry.fields[1]
    if options.deterministic { members = try sortedMapMembers(members, keyType: keyField.type) }
    let valueNullable = isNullCarrier(valueField)
    for member in members {
      do throws(CodecError) {
        w.tag(field.number, .lengthDelimited)
        let start = w.beginLengthDelimited()
        try encodeMapKey(member.key, keyField, into: &w)
        if case .null = member.value, !valueNullable {
          throw CodecError.invalidJSON("null is not allowed as a map value")
        }
        try encodeSingular(member.value, valueField, always: true, into: &w, depth: depth)
        w.endLengthDelimited(start)
      } catch {
        throw error.adding("[" + JSONSnippet.quote(member.key) + "]")
      }
    }
  }

  /// Map keys are JSON strings; integer and bool keys are parsed from them.
  private func encodeMapKey(_ key: String, _ keyField: FieldNode, into w: inout WireWriter) throws(CodecError) {
    switch keyField.type {
    case .string:
      w.tag(1, .lengthDelimited)
      w.string(key)
    case .bool:
      guard key == "true" || key == "false" else {
        throw CodecError.invalidJSON("map key \(JSONSnippet.quote(key)) is not \"true\" or \"false\"")
      }
      w.tag(1, .varint)
      w.varint(key == "true" ? 1 : 0)
    default:
      let bits: UInt64
      do throws(CodecError) {
        bits = try ScalarFromJSON.bits(keyField.type, .string(key), enumNode: nil)
      } catch {
        throw CodecError.invalidJSON("map key \(JSONSnippet.quote(key)) is not a valid \(keyField.type.protoName)")
      }
      let wt = keyField.type.wireType
      w.tag(1, wt)
      writeRawScalar(bits, wt, into: &w)
    }
  }

  /// Orders map entries as protobuf's deterministic mode does: numerically for
  /// integer keys, false before true, by UTF-8 bytes for strings.
  private func sortedMapMembers(_ members: [JSONMember], keyType: ProtoFieldType) throws(CodecError) -> [JSONMember] {
    switch keyType {
    case .string:
      return members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    case .bool:
      return members.sorted { $0.key == "false" && $1.key == "true" }
    case .uint32, .uint64, .fixed32, .fixed64:
      return members.sorted { (JSONNumberText.uint64($0.key) ?? 0) < (JSONNumberText.uint64($1.key) ?? 0) }
    default:
      return members.sorted { (JSONNumberText.int64($0.key) ?? 0) < (JSONNumberText.int64($1.key) ?? 0) }
    }
  }
}
