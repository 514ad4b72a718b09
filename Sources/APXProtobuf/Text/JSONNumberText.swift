import APXCore

/// Exact conversions from JSON number text (or a quoted number) to protobuf
/// integers and floats, without going through Double for integers, so
/// `9223372036854775807` and `1e2` are both read exactly.
enum JSONNumberText {
  /// The integer value of a decimal literal (`-12`, `1.0`, `1e2`, `100e-2`), or nil when it
  /// is not an integer or does not fit 64 bits of magnitude.
  static func integer(_ text: String) -> (negative: Bool, magnitude: UInt64)? {
    var utf8 = text.utf8[...]
    var negative = false
    if utf8.first == UInt8(ascii: "-") {
      negative = true
      utf8 = utf8.dropFirst()
    } else if utf8.first == UInt8(ascii: "+") {
      utf8 = utf8.dropFirst()
    }
    // Fast path: plain digits.
    var magnitude: UInt64 = 0
    var digits: [UInt8] = []
    var fractionDigits = 0
    var exponent = 0
    var seenDot = false
    var seenDigit = false
    var i = utf8.startIndex
    while i < utf8.endIndex {
      let c = utf8[i]
      if c >= 48 && c <= 57 {
        digits.append(c - 48)
        if seenDot { fractionDigits += 1 }
        seenDigit = true
      } else if c == UInt8(ascii: ".") && !seenDot {
        seenDot = true
      } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
        guard seenDigit else { return nil }
        let rest = String(decoding: utf8[utf8.index(after: i)...], as: UTF8.self)
        guard let e = Int(rest.hasPrefix("+") ? String(rest.dropFirst()) : rest), e > -400, e < 400 else { return nil }
        exponent = e
        break
      } else {
        return nil
      }
      i = utf8.index(after: i)
    }
    guard seenDigit else { return nil }
    var shift = exponent - fractionDigits
    // Drop trailing zeros while the shift is negative (1.50e1 -> 15).
    while shift < 0, let last = digits.last, last == 0 {
      digits.removeLast()
      shift += 1
    }
    if shift < 0 {
      // Remaining fractional digits must all be zero... they are not (trailing zeros removed).
      if digits.allSatisfy({ $0 == 0 }) { return (negative, 0) }
      return nil
    }
    for d in digits {
      let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(UInt64(d))
      if o1 || o2 { return nil }
      magnitude = s
    }
    if magnitude != 0 {
      for _ in 0..<shift {
        let (m, o) = magnitude.multipliedReportingOverflow(by: 10)
        if o { return nil }
        magnitude = m
      }
    }
    return (negative, magnitude)
  }

  static func int64(_ text: String) -> Int64? {
    if let v = Int64(text) { return v }
    guard let (negative, magnitude) = integer(text) else { return nil }
    if negative {
      if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
      return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }

  static func uint64(_ text: String) -> UInt64? {
    if let v = UInt64(text) { return v }
    guard let (negative, magnitude) = integer(text) else { return nil }
    if negative { return magnitude == 0 ? 0 : nil }
    return magnitude
  }

  /// A finite double from decimal text; rejects hex, `inf` and `nan` spellings Swift would accept.
  static func double(_ text: String) -> Double? {
    guard !text.isEmpty,
      text.utf8.allSatisfy({ c in
        (c >= 48 && c <= 57) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
          || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
      }), let v = Double(text), v.isFinite
    else { return nil }
    return v
  }
}
