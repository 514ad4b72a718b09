import APXCore
import APXProtobuf
import Foundation
import Testing

/// Property: for random messages generated from the descriptors (seeded, so
/// failures reproduce), decode(encode(x)) == x, and encoding is stable.
@Suite struct RoundTripPropertyTests {
  @Test(arguments: [
    "apxtest.v1.Everything", "apxtest.v1.Lesson", "apxtest.v1.CreateLessonRequest", "apxtest.v1.Nested",
  ])
  func decodeOfEncodeIsIdentity(_ typeName: String) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: typeName)
    var generator = RandomMessage(pool: pool, rng: SeededRandom(seed: UInt64(typeName.utf8.count) &* 7919))
    var fieldsSeen = 0
    for i in 0..<150 {
      let x = generator.message(type, depth: 0)
      fieldsSeen += memberCount(x)
      let bytes = try pool.encode(x, as: type)
      let y = try pool.decode(bytes, as: type)
      #expect(jsonEquivalent(x, y), "case \(i)\nin:  \(text(x))\nout: \(text(y))")
      // The decoded JSON encodes to the same bytes (canonical up to map order).
      let again = try pool.encode(y, as: type, options: EncodeOptions(deterministic: true))
      let first = try pool.encode(x, as: type, options: EncodeOptions(deterministic: true))
      #expect(again == first, "case \(i)")
      // With emitDefaults the output still encodes to the same message.
      let withDefaults = try pool.decode(bytes, as: type, options: DecodeOptions(emitDefaults: true))
      #expect(try pool.encode(withDefaults, as: type, options: EncodeOptions(deterministic: true)) == first)
    }
    #expect(fieldsSeen > 150)  // the generator really fills messages
  }

  @Test func reusableBufferAppendsAndRollsBackOnError() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Lesson")
    var buffer: [UInt8] = [0xAA]
    try pool.encode(try JSONParser.parse(#"{"id": "a"}"#), as: type, into: &buffer)
    #expect(buffer == [0xAA, 0x0a, 0x01, 0x61])
    #expect(throws: ProtobufError.self) {
      try pool.encode(try JSONParser.parse(#"{"id": "b", "title": 5}"#), as: type, into: &buffer)
    }
    #expect(buffer == [0xAA, 0x0a, 0x01, 0x61])
  }

  @Test func outputKeysFollowFieldNumbers() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Everything")
    let json = try JSONParser.parse(
      #"{"farAway": 1, "customName": "r", "fString": "s", "fDouble": 1.5, "createdAt": "2024-01-01T00:00:00Z"}"#)
    let decoded = try pool.decode(try pool.encode(json, as: type), as: type)
    #expect(decoded.objectMembers?.map(\.key) == ["fDouble", "fString", "createdAt", "customName", "farAway"])
  }

  @Test func mergesRepeatedOccurrencesOfAMessageField() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Everything")
    // nested{label:"a"} then nested{count:2}: protobuf merges them.
    let bytes: [UInt8] = [0x8a, 0x01, 0x03, 0x0a, 0x01, 0x61, 0x8a, 0x01, 0x02, 0x10, 0x02]
    let decoded = try pool.decode(bytes, as: type)
    #expect(text(decoded) == #"{"nested":{"label":"a","count":2}}"#)
  }

  @Test func acceptsUnpackedAndPackedForTheSameField() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Everything")
    // packed_int32 (20) written unpacked, then packed; unpacked_int32 (21) written packed.
    let bytes: [UInt8] = [0xa0, 0x01, 0x01, 0xa2, 0x01, 0x02, 0x02, 0x03, 0xaa, 0x01, 0x01, 0x07]
    let decoded = try pool.decode(bytes, as: type)
    #expect(text(decoded) == #"{"packedInt32":[1,2,3],"unpackedInt32":[7]}"#)
  }

  @Test func lastOneofMemberOnTheWireWins() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Everything")
    // choice_text (40) = "a", then choice_number (41) = 5.
    let bytes: [UInt8] = [0xc2, 0x02, 0x01, 0x61, 0xc8, 0x02, 0x05]
    #expect(text(try pool.decode(bytes, as: type)) == #"{"choiceNumber":"5"}"#)
  }
}

/// All object members at any depth.
func memberCount(_ value: JSONValue) -> Int {
  switch value {
  case .object(let members): return members.count + members.map { memberCount($0.value) }.reduce(0, +)
  case .array(let items): return items.map(memberCount).reduce(0, +)
  default: return 0
  }
}

/// Random canonical JSON for a message type: values as the decoder prints
/// them (int64 as strings, defaults omitted where there is no presence), so
/// the round trip must give the same JSON back.
struct RandomMessage {
  let pool: DescriptorPool
  var rng: SeededRandom

  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

  mutating func message(_ type: MessageDescriptor, depth: Int) -> JSONValue {
    if let wkt = wellKnown(type, depth: depth) { return wkt }
    var members: [JSONMember] = []
    var oneofsUsed = Set<String>()
    guard depth < 3 else { return .object([]) }
    for field in type.fields {
      guard chance(0.6) else { continue }
      if let oneof = field.oneofName {
        guard oneofsUsed.insert(oneof).inserted else { continue }
      }
      if field.enumType?.fullName == "google.protobuf.NullValue" { continue }
      if field.isMap {
        guard let entry = field.messageType, let keyField = entry.field(number: 1),
          let valueField = entry.field(number: 2)
        else { continue }
        var seen = Set<String>()
        var entries: [JSONMember] = []
        for _ in 0..<int(1...3) {
          let key = mapKey(keyField.type)
          guard seen.insert(key).inserted else { continue }
          entries.append(JSONMember(key, value(valueField, depth: depth, allowDefault: true)))
        }
        members.append(JSONMember(field.jsonName, .object(entries)))
      } else if field.isRepeated {
        let items = (0..<int(1...3)).map { _ in value(field, depth: depth, allowDefault: true) }
        members.append(JSONMember(field.jsonName, .array(items)))
      } else {
        members.append(JSONMember(field.jsonName, value(field, depth: depth, allowDefault: field.hasPresence)))
      }
    }
    return .object(members)
  }

  mutating func mapKey(_ type: ProtoFieldType) -> String {
    switch type {
    case .bool: return chance(0.5) ? "true" : "false"
    case .string: return string()
    case .int32, .sint32, .sfixed32: return String(Int32.random(in: .min ... .max, using: &rng))
    case .uint32, .fixed32: return String(UInt32.random(in: 0 ... .max, using: &rng))
    case .uint64, .fixed64: return String(UInt64.random(in: 0 ... .max, using: &rng))
    default: return String(Int64.random(in: .min ... .max, using: &rng))
    }
  }

  mutating func string() -> String {
    let pool: [Unicode.Scalar] = ["a", "Z", "0", " ", "_", "\"", "\\", "\n", "\u{0}", "é", "✓", "日", "𝄞", "\u{7f}"]
    return String(String.UnicodeScalarView((0..<int(0...8)).map { _ in pool[int(0...(pool.count - 1))] }))
  }

  /// One value of `field`'s type; `allowDefault` false avoids values equal to the default.
  mutating func value(_ field: FieldDescriptor, depth: Int, allowDefault: Bool) -> JSONValue {
    if let nested = field.messageType { return message(nested, depth: depth + 1) }
    while true {
      let v = scalar(field)
      if allowDefault || !isDefault(v) { return v }
    }
  }

  func isDefault(_ v: JSONValue) -> Bool {
    switch v {
    case .number(let n): return Double(n) == 0 && !n.hasPrefix("-")
    case .string(let s): return s.isEmpty || s == "0" || s.hasSuffix("_UNSPECIFIED")
    case .bool(let b): return !b
    default: return false
    }
  }

  mutating func scalar(_ field: FieldDescriptor) -> JSONValue {
    switch field.type {
    case .int32, .sint32, .sfixed32: return .number(String(Int32.random(in: .min ... .max, using: &rng) >> int(0...31)))
    case .uint32, .fixed32: return .number(String(UInt32.random(in: 0 ... .max, using: &rng) >> int(0...32)))
    case .int64, .sint64, .sfixed64: return .string(String(Int64.random(in: .min ... .max, using: &rng) >> int(0...63)))
    case .uint64, .fixed64: return .string(String(UInt64.random(in: 0 ... .max, using: &rng) >> int(0...64)))
    case .bool: return .bool(chance(0.5))
    case .string: return .string(string())
    case .bytes:
      let bytes = (0..<int(0...10)).map { _ in UInt8.random(in: 0...255, using: &rng) }
      return .string(Data(bytes).base64EncodedString())
    case .double:
      if chance(0.1) { return .string(["NaN", "Infinity", "-Infinity"][int(0...2)]) }
      var d: Double
      repeat { d = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &rng)) } while !d.isFinite
      return .number("\(d)")
    case .float:
      if chance(0.1) { return .string(["NaN", "Infinity", "-Infinity"][int(0...2)]) }
      // Values with short exact decimals, so the float32 text is unambiguous.
      return .number("\(Double(int(-4000...4000)) / 8)")
    case .enum:
      guard let e = field.enumType else { return .number("0") }
      if chance(0.1) { return .number(String(int(100...200))) }  // unknown numbers stay numbers
      return .string(e.values[int(0...(e.values.count - 1))].name)
    case .message, .group:
      return .object([])
    }
  }

  mutating func jsonValue(depth: Int) -> JSONValue {
    switch int(0...(depth < 3 ? 5 : 3)) {
    case 0: return .null
    case 1: return .bool(chance(0.5))
    case 2: return .number("\(Double(int(-1000...1000)) / 4)")
    case 3: return .string(string())
    case 4: return .array((0..<int(0...3)).map { _ in jsonValue(depth: depth + 1) })
    default: return structObject(depth: depth + 1)
    }
  }

  mutating func structObject(depth: Int) -> JSONValue {
    var seen = Set<String>()
    var members: [JSONMember] = []
    for _ in 0..<int(0...3) {
      let key = string()
      guard seen.insert(key).inserted else { continue }
      members.append(JSONMember(key, jsonValue(depth: depth)))
    }
    return .object(members)
  }

  mutating func wellKnown(_ type: MessageDescriptor, depth: Int) -> JSONValue? {
    switch type.fullName {
    case "google.protobuf.Timestamp":
      return .string(
        [
          "1970-01-01T00:00:00Z", "2024-02-29T12:34:56.789Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
          "1969-12-31T23:59:59.000001Z",
        ][int(0...4)])
    case "google.protobuf.Duration":
      return .string(["0s", "1.500s", "-0.000000001s", "315576000000s", "-3600.000100s"][int(0...4)])
    case "google.protobuf.FieldMask": return .string(["", "a", "fooBar.baz,qux"][int(0...2)])
    case "google.protobuf.Empty": return .object([])
    case "google.protobuf.Struct": return structObject(depth: depth)
    case "google.protobuf.ListValue": return .array((0..<int(0...3)).map { _ in jsonValue(depth: depth + 1) })
    case "google.protobuf.Value": return jsonValue(depth: depth)
    case "google.protobuf.Any":
      if chance(0.3) { return .object([]) }
      if chance(0.5) {
        return .object([
          JSONMember("@type", .string("type.googleapis.com/google.protobuf.Duration")),
          JSONMember("value", .string("2s")),
        ])
      }
      guard let nested = pool.message("apxtest.v1.Nested"), case .object(let fields) = message(nested, depth: depth + 1)
      else { return .object([]) }
      return .object([JSONMember("@type", .string("type.googleapis.com/apxtest.v1.Nested"))] + fields)
    case "google.protobuf.DoubleValue": return .number("\(Double(int(-100...100)) / 8)")
    case "google.protobuf.FloatValue": return .number("\(Double(int(-100...100)) / 8)")
    case "google.protobuf.Int64Value": return .string(String(Int64.random(in: .min ... .max, using: &rng)))
    case "google.protobuf.UInt64Value": return .string(String(UInt64.random(in: 0 ... .max, using: &rng)))
    case "google.protobuf.Int32Value": return .number(String(Int32.random(in: .min ... .max, using: &rng)))
    case "google.protobuf.UInt32Value": return .number(String(UInt32.random(in: 0 ... .max, using: &rng)))
    case "google.protobuf.BoolValue": return .bool(chance(0.5))
    case "google.protobuf.StringValue": return .string(string())
    case "google.protobuf.BytesValue": return .string(Data((0..<int(0...6)).map { UInt8($0) }).base64EncodedString())
    default: return nil
    }
  }
}
