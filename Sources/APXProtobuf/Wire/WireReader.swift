/// A malformed-input failure from the wire reader; the decoder adds the message
/// type and field path before it becomes a `ProtobufError`.
struct WireFailure: Error {
  var message: String
  /// False when the wire format held but a value broke a rule above it (text that is not UTF-8).
  var isWireFormat = true
}

/// Reads protobuf wire-format values from a byte buffer, bounds-checked:
/// every read fails with `WireFailure` instead of trapping on truncated or
/// overlong input.
struct WireReader {
  let base: UnsafeBufferPointer<UInt8>
  var position: Int
  let end: Int

  init(_ base: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
    self.base = base
    self.position = range.lowerBound
    self.end = range.upperBound
  }

  var isAtEnd: Bool { position >= end }

  @inline(__always)
  mutating func varint() throws(WireFailure) -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else {
        throw WireFailure(message: "truncated varint at byte \(position)")
      }
      let byte = base[position]
      position += 1
      if shift == 63 && byte > 1 {
        throw WireFailure(message: "varint longer than 64 bits at byte \(position - 1)")
      }
      result |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return result }
      shift += 7
      if shift > 63 {
        throw WireFailure(message: "varint longer than 10 bytes at byte \(position - 1)")
      }
    }
  }

  /// Reads a tag: (field number, wire type). Rejects field number 0 and wire types 6 and 7.
  @inline(__always)
  mutating func tag() throws(WireFailure) -> (Int32, WireType) {
    let start = position
    let raw = try varint()
    guard raw <= UInt64(UInt32.max) else { throw WireFailure(message: "tag out of range at byte \(start)") }
    let number = Int32(truncatingIfNeeded: raw >> 3)
    guard number > 0 else { throw WireFailure(message: "field number 0 at byte \(start)") }
    guard let type = WireType(rawValue: UInt8(raw & 7)) else {
      throw WireFailure(message: "invalid wire type \(raw & 7) at byte \(start)")
    }
    return (number, type)
  }

  @inline(__always)
  mutating func fixed32() throws(WireFailure) -> UInt32 {
    guard end - position >= 4 else { throw WireFailure(message: "truncated 32-bit value at byte \(position)") }
    let v =
      UInt32(base[position]) | UInt32(base[position + 1]) << 8 | UInt32(base[position + 2]) << 16
      | UInt32(base[position + 3]) << 24
    position += 4
    return v
  }

  @inline(__always)
  mutating func fixed64() throws(WireFailure) -> UInt64 {
    let lo = try fixed32()
    let hi = try fixed32()
    return UInt64(lo) | UInt64(hi) << 32
  }

  /// Reads a length prefix and returns the range of the body, which must fit.
  @inline(__always)
  mutating func lengthDelimited() throws(WireFailure) -> Range<Int> {
    let start = position
    let length = try varint()
    guard length <= UInt64(end - position) else {
      throw WireFailure(message: "length \(length) at byte \(start) runs past the end of the data")
    }
    let range = position..<(position + Int(length))
    position = range.upperBound
    return range
  }

  /// Skips the value of a field whose tag was just read; for a group returns
  /// the range of its body (up to, not including, the matching end tag).
  @discardableResult
  mutating func skip(number: Int32, wireType: WireType, depth: Int) throws(WireFailure) -> Range<Int> {
    let start = position
    switch wireType {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .fixed32: _ = try fixed32()
    case .lengthDelimited: return try lengthDelimited()
    case .startGroup:
      guard depth < ProtobufLimits.maxDepth else {
        throw WireFailure(message: "groups nested deeper than \(ProtobufLimits.maxDepth) levels")
      }
      while true {
        let tagStart = position
        guard position < end else { throw WireFailure(message: "group \(number) is not closed") }
        let (n, t) = try tag()
        if t == .endGroup {
          guard n == number else {
            throw WireFailure(message: "end-group tag for field \(n) at byte \(tagStart) closes group \(number)")
          }
          return start..<tagStart
        }
        try skip(number: n, wireType: t, depth: depth + 1)
      }
    case .endGroup:
      throw WireFailure(message: "unexpected end-group tag for field \(number) at byte \(position)")
    }
    return start..<position
  }
}

/// Limits that keep hostile input from exhausting the stack.
public enum ProtobufLimits {
  /// Maximum message nesting, as in the reference implementations.
  public static let maxDepth = 100
}
