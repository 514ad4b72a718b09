import APXCore

/// The special JSON forms of google.protobuf well-known types, wire -> JSON.
/// Field numbers are those of the published .proto files (stable forever).
extension WireToJSON {
  func decodeWellKnown(_ ranges: [Range<Int>], _ msg: MessageNode, depth: Int) throws(CodecError) -> JSONValue {
    switch msg.wellKnown {
    case .none:
      return .object([])
    case .timestamp, .duration:
      var seconds: Int64 = 0
      var nanos: Int32 = 0
      try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
        switch (number, wireType) {
        case (1, .varint): seconds = Int64(bitPattern: try wire { () throws(WireFailure) in try r.varint() })
        case (2, .varint): nanos = Int32(truncatingIfNeeded: try wire { () throws(WireFailure) in try r.varint() })
        default: return false
        }
        return true
      }
      let text =
        msg.wellKnown == .timestamp
        ? ProtoTimeText.formatTimestamp(seconds: seconds, nanos: nanos)
        : ProtoTimeText.formatDuration(seconds: seconds, nanos: nanos)
      guard let text else {
        throw CodecError(.malformedMessage, "\(msg.fullName) out of range: seconds \(seconds), nanos \(nanos)")
      }
      return .string(text)
    case .fieldMask:
      var paths: [String] = []
      try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
        guard number == 1, wireType == .lengthDelimited else { return false }
        guard case .string(let path) = try ScalarToJSON.read(.string, &r, enumNode: nil).0 else { return true }
        guard let camel = FieldMaskText.toCamel(path) else {
          throw CodecError(
            .malformedMessage, "field mask path \(JSONSnippet.quote(path)) has no lowerCamelCase JSON form")
        }
        paths.append(camel)
        return true
      }
      return .string(paths.joined(separator: ","))
    case .empty:
      return .object([])
    case .structValue:
      return try structObject(ranges, depth: depth)
    case .listValue:
      return try listArray(ranges, depth: depth)
    case .value:
      return try valueJSON(ranges, depth: depth)
    case .any:
      return try anyJSON(ranges, depth: depth)
    case .doubleValue, .floatValue, .int64Value, .uint64Value, .int32Value, .uint32Value, .boolValue,
      .stringValue, .bytesValue:
      let type = msg.wellKnown.wrappedType ?? .string
      var value = ScalarToJSON.defaultValue(type, enumNode: nil)
      try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
        guard number == 1, wireType == type.wireType else { return false }
        value = try ScalarToJSON.read(type, &r, enumNode: nil).0
        return true
      }
      return value
    }
  }

  /// Walks the fields of `ranges`; `handle` reads the ones it knows and returns
  /// false for the rest, which are skipped.
  private func scan(
    _ ranges: [Range<Int>], depth: Int,
    _ handle: (Int32, WireType, inout WireReader) throws(CodecError) -> Bool
  ) throws(CodecError) {
    for range in ranges {
      var r = WireReader(base, range: range)
      while !r.isAtEnd {
        let (number, wireType) = try wire { () throws(WireFailure) in try r.tag() }
        if try !handle(number, wireType, &r) {
          try wire { () throws(WireFailure) in try r.skip(number: number, wireType: wireType, depth: depth) }
        }
      }
    }
  }

  /// Struct: `map<string, Value> fields = 1` -> a JSON object.
  private func structObject(_ ranges: [Range<Int>], depth: Int) throws(CodecError) -> JSONValue {
    guard depth < ProtobufLimits.maxDepth else {
      throw CodecError(.malformedMessage, "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    var members: [JSONMember] = []
    var index: [String: Int] = [:]
    try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
      guard number == 1, wireType == .lengthDelimited else { return false }
      let entry = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      var key = ""
      var valueBodies: [Range<Int>] = []
      try scan([entry], depth: depth) { (n, t, er) throws(CodecError) in
        if n == 1 && t == .lengthDelimited {
          if case .string(let k) = try ScalarToJSON.read(.string, &er, enumNode: nil).0 { key = k }
          return true
        }
        if n == 2 && t == .lengthDelimited {
          valueBodies.append(try wire { () throws(WireFailure) in try er.lengthDelimited() })
          return true
        }
        return false
      }
      let value: JSONValue
      do throws(CodecError) {
        value = try valueJSON(valueBodies, depth: depth + 1)
      } catch {
        throw error.adding(CodecError.component(key: key))
      }
      if let i = index[key] {
        members[i].value = value
      } else {
        index[key] = members.count
        members.append(JSONMember(key, value))
      }
      return true
    }
    return .object(members)
  }

  /// ListValue: `repeated Value values = 1` -> a JSON array.
  private func listArray(_ ranges: [Range<Int>], depth: Int) throws(CodecError) -> JSONValue {
    guard depth < ProtobufLimits.maxDepth else {
      throw CodecError(.malformedMessage, "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    var items: [JSONValue] = []
    try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
      guard number == 1, wireType == .lengthDelimited else { return false }
      let body = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      do throws(CodecError) {
        items.append(try valueJSON([body], depth: depth + 1))
      } catch {
        throw error.adding("[\(items.count)]")
      }
      return true
    }
    return .array(items)
  }

  /// Value: whichever kind was set last; an unset Value prints as null (as json_format does).
  private func valueJSON(_ ranges: [Range<Int>], depth: Int) throws(CodecError) -> JSONValue {
    guard depth < ProtobufLimits.maxDepth else {
      throw CodecError(.malformedMessage, "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    enum Kind {
      case scalar(JSONValue)
      case structBodies([Range<Int>])
      case listBodies([Range<Int>])
    }
    var kind = Kind.scalar(.null)
    try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
      switch (number, wireType) {
      case (1, .varint):
        _ = try wire { () throws(WireFailure) in try r.varint() }
        kind = .scalar(.null)
      case (2, .fixed64):
        let d = Double(bitPattern: try wire { () throws(WireFailure) in try r.fixed64() })
        // json_format refuses NaN/Infinity here; apx shows them as their string spellings.
        kind = .scalar(ScalarToJSON.doubleJSON(d))
      case (3, .lengthDelimited):
        kind = .scalar(try ScalarToJSON.read(.string, &r, enumNode: nil).0)
      case (4, .varint):
        kind = .scalar(.bool(try wire { () throws(WireFailure) in try r.varint() } != 0))
      case (5, .lengthDelimited):
        let body = try wire { () throws(WireFailure) in try r.lengthDelimited() }
        if case .structBodies(let b) = kind { kind = .structBodies(b + [body]) } else { kind = .structBodies([body]) }
      case (6, .lengthDelimited):
        let body = try wire { () throws(WireFailure) in try r.lengthDelimited() }
        if case .listBodies(let b) = kind { kind = .listBodies(b + [body]) } else { kind = .listBodies([body]) }
      default:
        return false
      }
      return true
    }
    switch kind {
    case .scalar(let v): return v
    case .structBodies(let b): return try structObject(b, depth: depth + 1)
    case .listBodies(let b): return try listArray(b, depth: depth + 1)
    }
  }

  /// Any: `{"@type": url, ...fields}` (or `"value"` for a well-known type), resolved through the pool.
  private func anyJSON(_ ranges: [Range<Int>], depth: Int) throws(CodecError) -> JSONValue {
    var typeURL = ""
    var value: Range<Int> = 0..<0
    try scan(ranges, depth: depth) { (number, wireType, r) throws(CodecError) in
      switch (number, wireType) {
      case (1, .lengthDelimited):
        if case .string(let s) = try ScalarToJSON.read(.string, &r, enumNode: nil).0 { typeURL = s }
      case (2, .lengthDelimited):
        value = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      default:
        return false
      }
      return true
    }
    if typeURL.isEmpty && value.isEmpty { return .object([]) }
    let name = typeURL.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? typeURL
    guard let index = anyTypes.messageIndex[name] else {
      throw CodecError(
        .malformedMessage, "Any holds type \(JSONSnippet.quote(typeURL)), which is not in the descriptor pool",
        hint: "load the .proto that defines it (protoset with --include_imports, or reflection)")
    }
    let inner = anyTypes.messages[index]
    let nested = WireToJSON(storage: anyTypes, anyTypes: anyTypes, options: options, base: base)
    let decoded: JSONValue
    do throws(CodecError) {
      decoded = try nested.decodeMessage([value], inner, depth: depth + 1)
    } catch {
      throw error.adding(".value")
    }
    var members = [JSONMember("@type", .string(typeURL))]
    if inner.wellKnown != .none {
      members.append(JSONMember("value", decoded))
    } else if case .object(let fields) = decoded {
      members.append(contentsOf: fields)
    }
    return .object(members)
  }
}
