import APXCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The string formats a mock checks in requests: the ones its generator writes (`date-time`,
/// `date`, `time`, `uuid`, `email`, `uri`, `hostname`, `ipv4`), `ipv6`, and OpenAPI's integer
/// ranges `int32` and `int64`. Other formats are not judged: JSON Schema makes them
/// annotations unless a validator knows them.
enum FormatCheck {
  /// Why `text` is not of `format`, or nil when it is (or the format is not one of these).
  static func problem(_ text: String, format: String) -> String? {
    let valid: Bool
    switch format {
    case "date-time": valid = isDateTime(text)
    case "date": valid = isDate(Array(text.utf8))
    case "time": valid = isTime(Array(text.utf8))
    case "uuid": valid = isUUID(text)
    case "email": valid = isEmail(text)
    case "uri": valid = isURI(text)
    case "hostname": valid = isHostname(text)
    case "ipv4": valid = isIPv4(text)
    case "ipv6": valid = isIPv6(text)
    default: return nil
    }
    // The value is not repeated: a field with a format may hold a secret.
    return valid ? nil : "must be a valid \(format)"
  }

  /// Why a number is out of its integer format's range, or nil.
  static func problem(_ number: Double, format: String) -> String? {
    switch format {
    case "int32" where number < -2_147_483_648 || number > 2_147_483_647: "is out of the int32 range"
    case "int64" where number < -9_223_372_036_854_775_808 || number >= 9_223_372_036_854_775_808:
      "is out of the int64 range"
    default: nil
    }
  }

  /// RFC 3339 `full-date "T" full-time`, `T` and `Z` in either case, a space not allowed.
  static func isDateTime(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
    return isDate(Array(bytes[..<10])) && isTime(Array(bytes[11...]))
  }

  /// `YYYY-MM-DD` with a day that exists in that month.
  static func isDate(_ b: [UInt8]) -> Bool {
    guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      let year = digits(b[0..<4]), let month = digits(b[5..<7]), let day = digits(b[8..<10]), (1...12).contains(month)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(day)
  }

  /// `HH:MM:SS[.frac](Z|+HH:MM|-HH:MM)`; a leap second (60) is allowed, as RFC 3339 does.
  static func isTime(_ b: [UInt8]) -> Bool {
    guard b.count >= 9, b[2] == UInt8(ascii: ":"), b[5] == UInt8(ascii: ":"),
      let h = digits(b[0..<2]), let m = digits(b[3..<5]), let s = digits(b[6..<8]), h < 24, m < 60, s <= 60
    else { return false }
    var i = 8
    if b[i] == UInt8(ascii: ".") {
      i += 1
      let start = i
      while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
      if i == start { return false }
    }
    guard i < b.count else { return false }
    if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") { return i + 1 == b.count }
    guard b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), b.count - i == 6, b[i + 3] == UInt8(ascii: ":"),
      let oh = digits(b[(i + 1)..<(i + 3)]), let om = digits(b[(i + 4)..<(i + 6)])
    else { return false }
    return oh < 24 && om < 60
  }

  /// `8-4-4-4-12` hexadecimal digits.
  static func isUUID(_ text: String) -> Bool {
    let groups = text.split(separator: "-", omittingEmptySubsequences: false)
    return groups.map(\.utf8.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
  }

  /// `local@domain`: one `@`, a local part without spaces, a domain that is a hostname with a dot.
  static func isEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
      !parts[0].contains(where: { $0 == " " || $0.isNewline })
    else { return false }
    return parts[1].contains(".") && isHostname(String(parts[1]))
  }

  /// An absolute URI: a scheme (`letter *(letter / digit / + / - / .)`), `:`, and no spaces.
  static func isURI(_ text: String) -> Bool {
    guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
      return false
    }
    let scheme = text[..<colon]
    return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
      && !text.contains(where: { $0 == " " || $0.isNewline })
  }

  /// RFC 1123 host names: dot-separated labels of 1 to 63 letters, digits and `-`, not starting
  /// or ending with `-`, 253 characters at most.
  static func isHostname(_ text: String) -> Bool {
    guard !text.isEmpty, text.utf8.count <= 253 else { return false }
    return text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
      (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
        && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
  }

  /// Four decimal octets 0 to 255, without leading zeros.
  static func isIPv4(_ text: String) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        guard let n = digits(Array(part.utf8)[...]), n <= 255 else { return false }
        return part.utf8.count == 1 || part.first != "0"
      }
  }

  /// What the C library's `inet_pton` accepts as an IPv6 address.
  static func isIPv6(_ text: String) -> Bool {
    var address = in6_addr()
    return text.contains(":") && inet_pton(AF_INET6, text, &address) == 1
  }

  /// The decimal number written by these ASCII digits (1 to 9 of them), or nil.
  private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
    var n = 0
    for b in bytes {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
      n = n * 10 + Int(b - UInt8(ascii: "0"))
    }
    return n
  }
}
