import APXProtobuf

/// A test-side canonical form of protobuf bytes, written independently of the
/// codec's decoder: records are stably ordered by field number, nested
/// messages (including `Any.value`, resolved by type URL) are canonicalized
/// recursively, and the entries of each map field are sorted by their bytes.
///
/// Why: map entry order is unspecified in protobuf, and Python's serializer
/// (upb) writes map entries in hash-table order even with deterministic=True,
/// so exact bytes are compared only after putting map entries in one order.
/// Everything else (field order, varint widths, packing, defaults omitted)
/// must match byte for byte.
struct WireCanonicalForm {
  let pool: DescriptorPool

  struct Malformed: Error {}

  func canonical(_ bytes: ArraySlice<UInt8>, as type: MessageDescriptor) throws -> [UInt8] {
    var records: [(number: UInt64, bytes: [UInt8])] = []
    var mapEntries: [UInt64: [[UInt8]]] = [:]
    var i = bytes.startIndex
    var typeURL = ""
    var anyValue: ArraySlice<UInt8>?
    while i < bytes.endIndex {
      let tagStart = i
      let tag = try varint(bytes, &i)
      let number = tag >> 3
      let wireType = tag & 7
      switch wireType {
      case 0:
        _ = try varint(bytes, &i)
        records.append((number, Array(bytes[tagStart..<i])))
      case 1, 5:
        let size = wireType == 1 ? 8 : 4
        guard bytes.endIndex - i >= size else { throw Malformed() }
        i += size
        records.append((number, Array(bytes[tagStart..<i])))
      case 2:
        let length = Int(try varint(bytes, &i))
        guard bytes.endIndex - i >= length else { throw Malformed() }
        let payload = bytes[i..<(i + length)]
        i += length
        let field = number <= UInt64(Int32.max) ? type.field(number: Int32(number)) : nil
        if type.fullName == "google.protobuf.Any" {
          if number == 1 { typeURL = String(decoding: payload, as: UTF8.self) }
          if number == 2 { anyValue = payload }
          records.append((number, Array(bytes[tagStart..<i])))
        } else if let field, let inner = field.messageType, field.type == .message {
          let canonicalPayload = try canonical(payload, as: inner)
          let record =
            Array(bytes[tagStart..<(tagStart + tagLength(tag))]) + encodeVarint(UInt64(canonicalPayload.count))
            + canonicalPayload
          if field.isMap {
            mapEntries[number, default: []].append(record)
          } else {
            records.append((number, record))
          }
        } else {
          records.append((number, Array(bytes[tagStart..<i])))
        }
      default:
        throw Malformed()
      }
    }
    if let anyValue, let name = typeURL.split(separator: "/").last, let inner = pool.message(String(name)) {
      let value = try canonical(anyValue, as: inner)
      records.removeAll { $0.number == 2 }
      records.append((2, [0x12] + encodeVarint(UInt64(value.count)) + value))
    }
    for (number, entries) in mapEntries {
      for entry in entries.sorted(by: { $0.lexicographicallyPrecedes($1) }) { records.append((number, entry)) }
    }
    // Stable: records of one field keep their relative order (repeated fields).
    let ordered = records.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
    return ordered.flatMap(\.element.bytes)
  }

  private func varint(_ bytes: ArraySlice<UInt8>, _ i: inout Int) throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while i < bytes.endIndex, shift < 64 {
      let b = bytes[i]
      i += 1
      result |= UInt64(b & 0x7f) << shift
      if b < 0x80 { return result }
      shift += 7
    }
    throw Malformed()
  }

  private func tagLength(_ tag: UInt64) -> Int { encodeVarint(tag).count }

  private func encodeVarint(_ value: UInt64) -> [UInt8] {
    var v = value
    var out: [UInt8] = []
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
    return out
  }
}
