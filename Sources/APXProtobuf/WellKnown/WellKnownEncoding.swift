import APXCore

/// The special JSON forms of google.protobuf well-known types, JSON -> wire.
/// Field numbers are those of the published .proto files (stable forever).
extension JSONToWire {
  func encodeWellKnown(_ json: JSONValue, _ msg: MessageNode, into w: inout WireWriter, depth: Int) throws(CodecError) {
    switch msg.wellKnown {
    case .none:
      return
    case .timestamp:
      guard case .string(let s) = json, let (seconds, nanos) = ProtoTimeText.parseTimestamp(s) else {
        throw ScalarFromJSON.expected("an RFC 3339 timestamp like \"2024-01-01T00:00:00Z\"", json)
      }
      writeSecondsNanos(seconds, nanos, into: &w)
    case .duration:
      guard case .string(let s) = json, let (seconds, nanos) = ProtoTimeText.parseDuration(s) else {
        throw ScalarFromJSON.expected("a duration like \"1.5s\"", json)
      }
      writeSecondsNanos(seconds, nanos, into: &w)
    case .fieldMask:
      guard case .string(let s) = json else {
        throw ScalarFromJSON.expected("a field mask string like \"user.displayName,photo\"", json)
      }
      guard !s.isEmpty else { return }
      for path in s.split(separator: ",", omittingEmptySubsequences: false) {
        guard let snake = FieldMaskText.toSnake(String(path)), !snake.isEmpty else {
          throw CodecError.invalidJSON(
            "\(JSONSnippet.quote(String(path))) is not a valid lowerCamelCase field mask path")
        }
        w.tag(1, .lengthDelimited)
        w.string(snake)
      }
    case .empty:
      guard case .object(let members) = json else { throw ScalarFromJSON.expected("{}", json) }
      if let first = members.first, !options.ignoreUnknownFields {
        throw CodecError.invalidJSON("google.protobuf.Empty has no fields, got \(JSONSnippet.quote(first.key))")
      }
    case .structValue:
      guard case .object(let members) = json else { throw ScalarFromJSON.expected("a JSON object (Struct)", json) }
      try writeStructFields(members, into: &w, depth: depth)
    case .listValue:
      guard case .array(let items) = json else { throw ScalarFromJSON.expected("a JSON array (ListValue)", json) }
      try writeListItems(items, into: &w, depth: depth)
    case .value:
      try writeValue(json, into: &w, depth: depth)
    case .any:
      try encodeAny(json, into: &w, depth: depth)
    case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue,
      .stringValue, .bytesValue:
      // A wrapper is its bare value; the inner field has implicit presence.
      let type = msg.wellKnown.wrappedType ?? .string
      switch type {
      case .string:
        let s = try ScalarFromJSON.string(json)
        if !s.isEmpty {
          w.tag(1, .lengthDelimited)
          w.string(s)
        }
      case .bytes:
        let b = try ScalarFromJSON.bytes(json)
        if !b.isEmpty {
          w.tag(1, .lengthDelimited)
          w.lengthDelimited(b)
        }
      default:
        let bits = try ScalarFromJSON.bits(type, json, enumNode: nil)
        if bits != 0 {
          w.tag(1, type.wireType)
          switch type.wireType {
          case .fixed32: w.fixed32(UInt32(truncatingIfNeeded: bits))
          case .fixed64: w.fixed64(bits)
          default: w.varint(bits)
          }
        }
      }
    }
  }

  private func writeSecondsNanos(_ seconds: Int64, _ nanos: Int32, into w: inout WireWriter) {
    if seconds != 0 {
      w.tag(1, .varint)
      w.varint(UInt64(bitPattern: seconds))
    }
    if nanos != 0 {
      w.tag(2, .varint)
      w.varint(UInt64(bitPattern: Int64(nanos)))
    }
  }

  /// Struct: `map<string, Value> fields = 1`.
  private func writeStructFields(_ members: [JSONMember], into w: inout WireWriter, depth: Int) throws(CodecError) {
    guard depth < ProtobufLimits.maxDepth else {
      throw .invalidJSON("JSON nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    let ordered =
      options.deterministic ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
    for member in ordered {
      w.tag(1, .lengthDelimited)
      let entry = w.beginLengthDelimited()
      w.tag(1, .lengthDelimited)
      w.string(member.key)
      w.tag(2, .lengthDelimited)
      let value = w.beginLengthDelimited()
      do throws(CodecError) {
        try writeValue(member.value, into: &w, depth: depth + 1)
      } catch {
        throw error.adding(CodecError.component(key: member.key))
      }
      w.endLengthDelimited(value)
      w.endLengthDelimited(entry)
    }
  }

  /// ListValue: `repeated Value values = 1`.
  private func writeListItems(_ items: [JSONValue], into w: inout WireWriter, depth: Int) throws(CodecError) {
    guard depth < ProtobufLimits.maxDepth else {
      throw .invalidJSON("JSON nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    for (i, item) in items.enumerated() {
      w.tag(1, .lengthDelimited)
      let start = w.beginLengthDelimited()
      do throws(CodecError) {
        try writeValue(item, into: &w, depth: depth + 1)
      } catch {
        throw error.adding("[\(i)]")
      }
      w.endLengthDelimited(start)
    }
  }

  /// Value: oneof kind { NullValue null_value = 1; double number_value = 2;
  /// string string_value = 3; bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; }
  private func writeValue(_ json: JSONValue, into w: inout WireWriter, depth: Int) throws(CodecError) {
    switch json {
    case .null:
      w.tag(1, .varint)
      w.varint(0)
    case .number(let t):
      guard let d = JSONNumberText.double(t) else { throw CodecError.invalidJSON("\(t) is out of range for a double") }
      w.tag(2, .fixed64)
      w.fixed64(d.bitPattern)
    case .string(let s):
      w.tag(3, .lengthDelimited)
      w.string(s)
    case .bool(let b):
      w.tag(4, .varint)
      w.varint(b ? 1 : 0)
    case .object(let members):
      w.tag(5, .lengthDelimited)
      let start = w.beginLengthDelimited()
      try writeStructFields(members, into: &w, depth: depth + 1)
      w.endLengthDelimited(start)
    case .array(let items):
      w.tag(6, .lengthDelimited)
      let start = w.beginLengthDelimited()
      try writeListItems(items, into: &w, depth: depth + 1)
      w.endLengthDelimited(start)
    }
  }

  /// Any: `{"@type": "type.googleapis.com/pkg.Msg", ...fields}`, or `"value"` for a well-known type.
  private func encodeAny(_ json: JSONValue, into w: inout WireWriter, depth: Int) throws(CodecError) {
    guard case .object(let members) = json else {
      throw ScalarFromJSON.expected("an object with \"@type\" (Any)", json)
    }
    if members.isEmpty { return }
    guard let typeMember = members.first(where: { $0.key == "@type" }) else {
      throw CodecError.invalidJSON(
        "an Any object needs an \"@type\" member like \"type.googleapis.com/package.Message\"")
    }
    guard case .string(let typeURL) = typeMember.value else {
      throw ScalarFromJSON.expected("a type URL string", typeMember.value).adding(".@type")
    }
    let inner = try anyMessage(typeURL: typeURL)
    w.tag(1, .lengthDelimited)
    w.string(typeURL)
    w.tag(2, .lengthDelimited)
    let start = w.beginLengthDelimited()
    let rest = members.filter { $0.key != "@type" }
    if inner.wellKnown != .none {
      guard let valueMember = rest.first(where: { $0.key == "value" }) else {
        throw CodecError.invalidJSON("an Any holding \(inner.fullName) needs its JSON under \"value\"")
      }
      if let extra = rest.first(where: { $0.key != "value" }), !options.ignoreUnknownFields {
        throw CodecError.invalidJSON(
          "unexpected member \(JSONSnippet.quote(extra.key)) in an Any holding \(inner.fullName)")
      }
      do throws(CodecError) {
        try encodeWellKnown(valueMember.value, inner, into: &w, depth: depth + 1)
      } catch {
        throw error.adding(".value")
      }
    } else {
      let nested = JSONToWire(storage: anyTypes, anyTypes: anyTypes, options: options)
      try nested.encodeFields(rest, inner, into: &w, depth: depth + 1)
    }
    w.endLengthDelimited(start)
  }

  /// Resolves an Any type URL (the part after the last `/`) through the pool.
  func anyMessage(typeURL: String) throws(CodecError) -> MessageNode {
    let name = typeURL.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? typeURL
    guard !name.isEmpty, let index = anyTypes.messageIndex[name] else {
      throw CodecError.invalidJSON(
        "Any type \(JSONSnippet.quote(typeURL)) names a message that is not in the descriptor pool",
        hint: "load the .proto that defines it (protoset with --include_imports, or reflection)")
    }
    return anyTypes.messages[index]
  }
}
