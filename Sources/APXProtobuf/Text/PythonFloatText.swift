/// Formats floating-point numbers the way Python's `repr` (and so protobuf's
/// `json_format`) does: the shortest digits that round-trip, in fixed
/// notation when the decimal exponent is in -4..<16 (always with a fraction
/// digit: `1.0`), otherwise as `1e-05` / `1.5e+16`.
enum PythonFloatText {
  static func format(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
    return render(value.description)
  }

  /// A float32 value: the shortest digits that read back as the same float32.
  static func format(_ value: Float) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
    return render(value.description)
  }

  /// Re-renders Swift's shortest round-trip text (`1e-05`, `1.0`, `1.2345e+16`) in Python's layout.
  private static func render(_ swiftText: String) -> String {
    var text = Substring(swiftText)
    var negative = false
    if text.hasPrefix("-") {
      negative = true
      text = text.dropFirst()
    }
    var mantissa = text
    var exponent = 0
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = text[..<e]
      exponent = Int(text[text.index(after: e)...]) ?? 0
    }
    // digits with the decimal point after the first digit => value = 0.d1d2... * 10^(point)
    var digits = ""
    var point = 0
    if let dot = mantissa.firstIndex(of: ".") {
      let intPart = mantissa[..<dot]
      let fracPart = mantissa[mantissa.index(after: dot)...]
      digits = String(intPart) + String(fracPart)
      point = intPart.count
    } else {
      digits = String(mantissa)
      point = mantissa.count
    }
    point += exponent
    // Strip leading zeros (adjusting the point) and trailing zeros.
    while digits.hasPrefix("0") && digits.count > 1 {
      digits.removeFirst()
      point -= 1
    }
    while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
    let sign = negative ? "-" : ""
    if digits == "0" { return sign + "0.0" }
    let exp10 = point - 1  // scientific exponent
    if exp10 < -4 || exp10 >= 16 {
      var out = sign + String(digits.prefix(1))
      if digits.count > 1 { out += "." + digits.dropFirst() }
      out += "e" + (exp10 < 0 ? "-" : "+")
      let magnitude = abs(exp10)
      out += magnitude < 10 ? "0\(magnitude)" : "\(magnitude)"
      return out
    }
    if point <= 0 {
      return sign + "0." + String(repeating: "0", count: -point) + digits
    }
    if point >= digits.count {
      return sign + digits + String(repeating: "0", count: point - digits.count) + ".0"
    }
    let idx = digits.index(digits.startIndex, offsetBy: point)
    return sign + digits[..<idx] + "." + digits[idx...]
  }
}
