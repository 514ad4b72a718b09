/// Appends protobuf wire-format values to a growable byte buffer. Nested
/// messages are written in place: a one-byte length placeholder is reserved
/// and widened afterwards only when the body is 128 bytes or longer, so no
/// size pre-pass is needed.
struct WireWriter {
  var bytes: [UInt8] = []

  init(capacity: Int = 256) {
    bytes.reserveCapacity(capacity)
  }

  @inline(__always)
  mutating func varint(_ value: UInt64) {
    var v = value
    while v >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }

  @inline(__always)
  mutating func tag(_ number: Int32, _ wireType: WireType) {
    varint(UInt64(UInt32(bitPattern: number) << 3 | UInt32(wireType.rawValue)))
  }

  @inline(__always)
  mutating func fixed32(_ value: UInt32) {
    bytes.append(UInt8(truncatingIfNeeded: value))
    bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    bytes.append(UInt8(truncatingIfNeeded: value >> 24))
  }

  @inline(__always)
  mutating func fixed64(_ value: UInt64) {
    fixed32(UInt32(truncatingIfNeeded: value))
    fixed32(UInt32(truncatingIfNeeded: value >> 32))
  }

  mutating func lengthDelimited(_ payload: some Collection<UInt8>) {
    varint(UInt64(payload.count))
    bytes.append(contentsOf: payload)
  }

  mutating func string(_ s: String) {
    var s = s
    s.withUTF8 { lengthDelimited($0) }
  }

  /// Starts a length-delimited body; pass the result to `endLengthDelimited`.
  @inline(__always)
  mutating func beginLengthDelimited() -> Int {
    bytes.append(0)
    return bytes.count
  }

  /// Writes the body length at the placeholder, widening it when needed.
  mutating func endLengthDelimited(_ start: Int) {
    let length = bytes.count - start
    if length < 0x80 {
      bytes[start - 1] = UInt8(length)
      return
    }
    var prefix: [UInt8] = []
    var v = UInt64(length)
    while v >= 0x80 {
      prefix.append(UInt8(truncatingIfNeeded: v) | 0x80)
      v >>= 7
    }
    prefix.append(UInt8(v))
    bytes.replaceSubrange((start - 1)..<start, with: prefix)
  }

  @inline(__always)
  static func zigZag32(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
  @inline(__always)
  static func zigZag64(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}
