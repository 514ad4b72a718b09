/// Base64: emits standard, padded; accepts standard and
/// URL-safe alphabets, with or without padding (as the proto3 JSON mapping requires).
public enum Base64 {
  private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// 0...63 for valid digits of either alphabet, 0xFF otherwise.
  private static let decodeTable: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
    t[Int(UInt8(ascii: "-"))] = 62
    t[Int(UInt8(ascii: "_"))] = 63
    return t
  }()

  public static func encode(_ data: some Collection<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((data.count + 2) / 3 * 4)
    var it = data.makeIterator()
    while let b0 = it.next() {
      let b1 = it.next()
      let b2 = it.next()
      out.append(alphabet[Int(b0 >> 2)])
      out.append(alphabet[Int((b0 & 0x03) << 4 | (b1 ?? 0) >> 4)])
      if let b1 {
        out.append(alphabet[Int((b1 & 0x0F) << 2 | (b2 ?? 0) >> 6)])
      } else {
        out.append(UInt8(ascii: "="))
      }
      if let b2 {
        out.append(alphabet[Int(b2 & 0x3F)])
      } else {
        out.append(UInt8(ascii: "="))
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes `text`, or returns nil when it is not base64.
  public static func decode(_ text: String) -> [UInt8]? {
    var utf8 = Array(text.utf8)
    // Padding is optional: strip up to two trailing '='.
    var padding = 0
    while let last = utf8.last, last == UInt8(ascii: "="), padding < 2 {
      utf8.removeLast()
      padding += 1
    }
    if utf8.count % 4 == 1 { return nil }
    if padding > 0 && (utf8.count + padding) % 4 != 0 { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count * 3 / 4)
    var acc: UInt32 = 0
    var bits = 0
    for c in utf8 {
      let v = decodeTable[Int(c)]
      if v == 0xFF { return nil }
      acc = acc << 6 | UInt32(v)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
      }
    }
    return out
  }
}
