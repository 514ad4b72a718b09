import APXCore

/// Options for protobuf -> JSON decoding.
public struct DecodeOptions: Sendable {
  /// Also print fields without presence that hold their default value
  /// (`0`, `""`, `[]`, `{}`), like json_format's `always_print_fields_with_no_presence`.
  public var emitDefaults: Bool
  /// Use the .proto field names (`created_at`) instead of JSON names (`createdAt`).
  public var useProtoNames: Bool

  public init(emitDefaults: Bool = false, useProtoNames: Bool = false) {
    self.emitDefaults = emitDefaults
    self.useProtoNames = useProtoNames
  }
}

/// Reads protobuf wire bytes of a message type into a JSON value (proto3 JSON
/// mapping). Keys come out in field-number order; unknown fields are skipped;
/// a message field seen twice is merged, as protobuf parsers do.
struct WireToJSON {
  let storage: PoolStorage
  let anyTypes: PoolStorage
  let options: DecodeOptions
  let base: UnsafeBufferPointer<UInt8>

  /// What has been read for one field so far.
  private enum Slot {
    case empty
    case scalar(JSONValue, isDefault: Bool)
    case list([JSONValue])
    /// A singular message's bodies, merged in order when the message is built.
    case message([Range<Int>])
    case map([JSONMember], [String: Int])
  }

  func decodeMessage(_ ranges: [Range<Int>], _ msg: MessageNode, depth: Int) throws(CodecError) -> JSONValue {
    guard depth < ProtobufLimits.maxDepth else {
      throw CodecError(.malformedMessage, "messages nested deeper than \(ProtobufLimits.maxDepth) levels")
    }
    if msg.wellKnown != .none { return try decodeWellKnown(ranges, msg, depth: depth) }
    var slots = [Slot](repeating: .empty, count: msg.fields.count)
    for range in ranges {
      var r = WireReader(base, range: range)
      while !r.isAtEnd {
        let number: Int32
        let wireType: WireType
        do throws(WireFailure) {
          (number, wireType) = try r.tag()
        } catch {
          throw CodecError(.malformedMessage, error.message)
        }
        guard let f = msg.fieldIndex(number: number) else {
          do throws(WireFailure) {
            try r.skip(number: number, wireType: wireType, depth: depth)
          } catch {
            throw CodecError(.malformedMessage, "unknown field \(number): \(error.message)")
          }
          continue
        }
        let field = msg.fields[f]
        do throws(CodecError) {
          try read(field, wireType, &r, into: &slots[f], depth: depth)
        } catch {
          throw error.adding("." + (options.useProtoNames ? field.name : field.jsonName))
        }
        // The last member of a oneof seen on the wire wins.
        if field.oneofIndex >= 0 {
          for other in msg.oneofs[field.oneofIndex].fieldIndices where other != f { slots[other] = .empty }
        }
      }
    }
    var members: [JSONMember] = []
    members.reserveCapacity(msg.fields.count)
    for (i, slot) in slots.enumerated() {
      let field = msg.fields[i]
      let key = options.useProtoNames ? field.name : field.jsonName
      switch slot {
      case .empty:
        guard options.emitDefaults && !field.hasPresence else { continue }
        if field.isMap {
          members.append(JSONMember(key, .object([])))
        } else if field.isRepeated {
          members.append(JSONMember(key, .array([])))
        } else {
          let enumNode = field.type == .enum ? storage.enums[field.typeIndex] : nil
          members.append(JSONMember(key, ScalarToJSON.defaultValue(field.type, enumNode: enumNode)))
        }
      case .scalar(let value, let isDefault):
        if isDefault && !field.hasPresence && !options.emitDefaults { continue }
        members.append(JSONMember(key, value))
      case .list(let items):
        members.append(JSONMember(key, .array(items)))
      case .map(let entries, _):
        members.append(JSONMember(key, .object(entries)))
      case .message(let bodies):
        do throws(CodecError) {
          members.append(
            JSONMember(key, try decodeMessage(bodies, storage.messages[field.typeIndex], depth: depth + 1)))
        } catch {
          throw error.adding("." + key)
        }
      }
    }
    return .object(members)
  }

  private func wireTypeError(_ field: FieldNode, got: WireType) -> CodecError {
    CodecError(
      .malformedMessage,
      "wire type \(got.label) does not fit field \(field.number) (\(field.type.protoName)), which uses \(field.type.wireType.label)",
      hint: "the bytes were probably written with a different .proto than the one loaded")
  }

  private func read(_ field: FieldNode, _ wireType: WireType, _ r: inout WireReader, into slot: inout Slot, depth: Int)
    throws(CodecError)
  {
    if field.isMap {
      guard wireType == .lengthDelimited else { throw wireTypeError(field, got: wireType) }
      let range = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      let (key, value) = try mapEntry(range, storage.messages[field.typeIndex], depth: depth)
      guard case .map(var entries, var index) = slot else {
        slot = .map([JSONMember(key, value)], [key: 0])
        return
      }
      slot = .empty  // drop the reference so the arrays are mutated in place
      if let existing = index[key] {
        entries[existing].value = value
      } else {
        index[key] = entries.count
        entries.append(JSONMember(key, value))
      }
      slot = .map(entries, index)
      return
    }
    let enumNode = field.type == .enum ? storage.enums[field.typeIndex] : nil
    if field.isRepeated {
      var items: [JSONValue]
      if case .list(let existing) = slot { items = existing } else { items = [] }
      slot = .empty
      if wireType == .lengthDelimited && field.type.isPackable {
        let range = try wire { () throws(WireFailure) in try r.lengthDelimited() }
        var inner = WireReader(base, range: range)
        while !inner.isAtEnd {
          do throws(CodecError) {
            items.append(try ScalarToJSON.read(field.type, &inner, enumNode: enumNode).0)
          } catch {
            throw error.adding("[\(items.count)]")
          }
        }
      } else {
        guard wireType == field.type.wireType else { throw wireTypeError(field, got: wireType) }
        do throws(CodecError) {
          items.append(try readOne(field, wireType, &r, enumNode: enumNode, depth: depth))
        } catch {
          throw error.adding("[\(items.count)]")
        }
      }
      slot = .list(items)
      return
    }
    guard wireType == field.type.wireType else { throw wireTypeError(field, got: wireType) }
    switch field.type {
    case .message, .group:
      let body: Range<Int>
      if field.type == .group {
        body = try wire { () throws(WireFailure) in
          try r.skip(number: field.number, wireType: .startGroup, depth: depth)
        }
      } else {
        body = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      }
      if case .message(var bodies) = slot {
        bodies.append(body)
        slot = .message(bodies)
      } else {
        slot = .message([body])
      }
    default:
      let (value, isDefault) = try ScalarToJSON.read(field.type, &r, enumNode: enumNode)
      slot = .scalar(value, isDefault: isDefault)
    }
  }

  /// One element of a repeated field that is not packed.
  private func readOne(_ field: FieldNode, _ wireType: WireType, _ r: inout WireReader, enumNode: EnumNode?, depth: Int)
    throws(CodecError) -> JSONValue
  {
    switch field.type {
    case .message:
      let body = try wire { () throws(WireFailure) in try r.lengthDelimited() }
      return try decodeMessage([body], storage.messages[field.typeIndex], depth: depth + 1)
    case .group:
      let body = try wire { () throws(WireFailure) in
        try r.skip(number: field.number, wireType: .startGroup, depth: depth)
      }
      return try decodeMessage([body], storage.messages[field.typeIndex], depth: depth + 1)
    default:
      return try ScalarToJSON.read(field.type, &r, enumNode: enumNode).0
    }
  }

  /// A map entry: key as a JSON object key, value as JSON (missing parts take defaults).
  private func mapEntry(_ range: Range<Int>, _ entry: MessageNode, depth: Int) throws(CodecError) -> (String, JSONValue)
  {
    let keyField = entry.fields[0]
    let valueField = entry.fields[1]
    var key: JSONValue?
    var value: JSONValue?
    var valueBodies: [Range<Int>] = []
    var r = WireReader(base, range: range)
    let valueEnum = valueField.type == .enum ? storage.enums[valueField.typeIndex] : nil
    while !r.isAtEnd {
      let (number, wireType) = try wire { () throws(WireFailure) in try r.tag() }
      if number == 1 {
        guard wireType == keyField.type.wireType else { throw wireTypeError(keyField, got: wireType) }
        key = try ScalarToJSON.read(keyField.type, &r, enumNode: nil).0
      } else if number == 2 {
        guard wireType == valueField.type.wireType else { throw wireTypeError(valueField, got: wireType) }
        if valueField.type == .message {
          valueBodies.append(try wire { () throws(WireFailure) in try r.lengthDelimited() })
        } else {
          value = try ScalarToJSON.read(valueField.type, &r, enumNode: valueEnum).0
        }
      } else {
        try wire { () throws(WireFailure) in try r.skip(number: number, wireType: wireType, depth: depth) }
      }
    }
    let keyText: String
    switch key ?? ScalarToJSON.defaultValue(keyField.type, enumNode: nil) {
    case .string(let s): keyText = s
    case .number(let n): keyText = n
    case .bool(let b): keyText = b ? "true" : "false"
    default: keyText = ""
    }
    do throws(CodecError) {
      if valueField.type == .message {
        value = try decodeMessage(valueBodies, storage.messages[valueField.typeIndex], depth: depth + 1)
      }
    } catch {
      throw error.adding("[" + JSONSnippet.quote(keyText) + "]")
    }
    return (keyText, value ?? ScalarToJSON.defaultValue(valueField.type, enumNode: valueEnum))
  }

  /// Runs a wire read, turning its failure into a codec error.
  @inline(__always)
  func wire<T>(_ body: () throws(WireFailure) -> T) throws(CodecError) -> T {
    do throws(WireFailure) {
      return try body()
    } catch {
      throw CodecError(.malformedMessage, error.message)
    }
  }
}
