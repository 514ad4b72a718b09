/// Formats floating-point numbers the way Python's `repr` (and so protobuf's
/// `json_format`) does: the shortest digits that round-trip, in fixed
/// notation when the decimal exponent is in -4..<16 (always with a fraction
/// digit: `1.0`), otherwise as `1e-05` / `1.5e+16`.
enum PythonFloatText {
  static func format(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
    return render(value.description)
  }

  /// A float32 value as json_format prints it (`type_checkers.ToShortestFloat`):
  /// the value rounded to the fewest significant digits, but at least 6, that
  /// read back as the same float32 (`1.4013e-45`, not `1e-45`).
  static func format(_ value: Float) -> String {
    guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
    let shortest = value.description
    if significantDigits(shortest) >= 6 { return render(shortest) }
    // Fewer than 6 shortest digits: json_format rounds the exact value to 6
    // digits. The double's shortest text is exact enough for that rounding.
    return render(roundedToSixDigits(Double(value).description))
  }

  private static func significantDigits(_ text: String) -> Int {
    let mantissa = text.prefix { $0 != "e" && $0 != "E" }
    let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
    return digits.reversed().drop { $0 == "0" }.count
  }

  /// `1.401298464324817e-45` -> `1.40130e-45` (half-even on the given digits).
  private static func roundedToSixDigits(_ text: String) -> String {
    var body = Substring(text)
    var sign = ""
    if body.hasPrefix("-") {
      sign = "-"
      body = body.dropFirst()
    }
    var exponent = 0
    if let e = body.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      exponent = Int(body[body.index(after: e)...]) ?? 0
      body = body[..<e]
    }
    let intPart = body.prefix { $0 != "." }
    let fracPart: Substring = body.firstIndex(of: ".").map { body[body.index(after: $0)...] } ?? ""
    var digits = Array((intPart + fracPart).utf8).map { Int($0) - 48 }
    var point = intPart.count + exponent
    while digits.first == 0 && digits.count > 1 {
      digits.removeFirst()
      point -= 1
    }
    guard digits.count > 6 else { return text }
    let next = digits[6]
    var kept = Array(digits[..<6])
    let roundUp: Bool
    if next > 5 || (next == 5 && digits[7...].contains { $0 != 0 }) {
      roundUp = true
    } else if next == 5 {
      roundUp = kept[5] % 2 == 1
    } else {
      roundUp = false
    }
    if roundUp {
      var i = 5
      while i >= 0 {
        kept[i] += 1
        if kept[i] < 10 { break }
        kept[i] = 0
        i -= 1
      }
      if i < 0 {
        kept.insert(1, at: 0)
        kept.removeLast()
        point += 1
      }
    }
    let digitText = String(kept.map { Character(String($0)) })
    return sign + "0." + digitText + "e" + String(point)
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
