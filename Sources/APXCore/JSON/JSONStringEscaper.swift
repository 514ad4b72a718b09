/// Writes a string as a JSON string literal (RFC 8259): `"` and `\` escaped,
/// control characters as `\b \f \n \r \t` or `\u00XX`, bidi controls as `\u202e`, everything
/// else (non-ASCII included) kept as UTF-8.
public enum JSONStringEscaper {
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends `"…"` for `string` to `out`.
  public static func appendQuoted(_ string: String, to out: inout [UInt8]) {
    out.append(0x22)
    var string = string
    string.withUTF8 { buffer in appendEscaped(buffer, to: &out) }
    out.append(0x22)
  }

  /// Appends the escaped form of the UTF-8 bytes in `buffer` (without quotes).
  public static func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    var spanStart = 0
    var i = 0
    let n = buffer.count
    while i < n {
      let b = buffer[i]
      // Copy runs of bytes that need no escaping in one go.
      if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0x7F && b != 0xD8 && b != 0xE2 {
        i += 1
        continue
      }
      let bidi = bidiControl(buffer, at: i)
      if b >= 0x80 && bidi == nil {
        i += 1
        continue
      }
      if spanStart < i {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[spanStart..<i]))
      }
      if let (scalar, length) = bidi {
        // Legal raw JSON, but it reorders what a terminal shows after it (U+202E).
        out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int(scalar >> UInt32(shift)) & 0xF]) }
        i += length
      } else {
        appendEscape(for: b, to: &out)
        i += 1
      }
      spanStart = i
    }
    if spanStart < n {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[spanStart..<n]))
    }
  }

  /// The bidi control (`Unicode.Scalar.isBidiControl`) whose UTF-8 starts at `i`, and its length.
  private static func bidiControl(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
    let b = buffer[i]
    if b == 0xD8, i + 1 < buffer.count, buffer[i + 1] == 0x9C { return (0x061C, 2) }
    guard b == 0xE2, i + 2 < buffer.count, buffer[i + 1] & 0xFE == 0x80, buffer[i + 2] & 0xC0 == 0x80 else {
      return nil
    }
    let scalar = UInt32(b & 0x0F) << 12 | UInt32(buffer[i + 1] & 0x3F) << 6 | UInt32(buffer[i + 2] & 0x3F)
    guard let decoded = Unicode.Scalar(scalar), decoded.isBidiControl else { return nil }
    return (scalar, 3)
  }

  private static func appendEscape(for b: UInt8, to out: inout [UInt8]) {
    out.append(0x5C)
    switch b {
    case 0x22: out.append(0x22)
    case 0x5C: out.append(0x5C)
    case 0x08: out.append(UInt8(ascii: "b"))
    case 0x0C: out.append(UInt8(ascii: "f"))
    case 0x0A: out.append(UInt8(ascii: "n"))
    case 0x0D: out.append(UInt8(ascii: "r"))
    case 0x09: out.append(UInt8(ascii: "t"))
    default:
      // DEL (0x7F) is legal raw JSON but invisible on a terminal; jq escapes it too.
      out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30])
      out.append(hexDigits[Int(b >> 4)])
      out.append(hexDigits[Int(b & 0x0F)])
    }
  }
}
