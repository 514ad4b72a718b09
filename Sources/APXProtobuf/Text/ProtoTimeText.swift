/// RFC 3339 timestamps and `1.5s` durations for google.protobuf.Timestamp and
/// Duration, with civil-date arithmetic done by hand (Howard Hinnant's
/// days-from-civil) so no Foundation calendar or clock is involved.
enum ProtoTimeText {
  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range.
  static let minSeconds: Int64 = -62_135_596_800
  static let maxSeconds: Int64 = 253_402_300_799
  /// ±10,000 years, the Duration range.
  static let maxDurationSeconds: Int64 = 315_576_000_000

  static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civilFromDays(_ z0: Int64) -> (Int64, Int64, Int64) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
  }

  private static func pad(_ v: Int64, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  /// 0, 3, 6 or 9 fraction digits, whichever shows `nanos` exactly.
  static func fraction(_ nanos: Int64) -> String {
    if nanos == 0 { return "" }
    if nanos % 1_000_000 == 0 { return "." + pad(nanos / 1_000_000, 3) }
    if nanos % 1000 == 0 { return "." + pad(nanos / 1000, 6) }
    return "." + pad(nanos, 9)
  }

  /// `2024-01-01T00:00:00.500Z`, or nil when out of the Timestamp range.
  static func formatTimestamp(seconds: Int64, nanos: Int32) -> String? {
    guard seconds >= minSeconds && seconds <= maxSeconds && nanos >= 0 && nanos <= 999_999_999 else { return nil }
    var days = seconds / 86400
    var rem = seconds % 86400
    if rem < 0 {
      rem += 86400
      days -= 1
    }
    let (y, m, d) = civilFromDays(days)
    return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):\(pad(rem % 60, 2))"
      + fraction(Int64(nanos)) + "Z"
  }

  /// Parses RFC 3339 (`Z` or a `±hh:mm` offset, up to 9 fraction digits).
  static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
    let b = Array(text.utf8)
    var i = 0
    func number(_ width: Int) -> Int64? {
      guard i + width <= b.count else { return nil }
      var v: Int64 = 0
      for k in i..<(i + width) {
        guard b[k] >= 48 && b[k] <= 57 else { return nil }
        v = v * 10 + Int64(b[k] - 48)
      }
      i += width
      return v
    }
    func expect(_ chars: String) -> Bool {
      guard i < b.count, chars.utf8.contains(b[i]) else { return false }
      i += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
      expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"), let second = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
      second < 60
    else { return nil }
    var nanos: Int64 = 0
    if i < b.count && b[i] == UInt8(ascii: ".") {
      i += 1
      var count = 0
      while i < b.count && b[i] >= 48 && b[i] <= 57 {
        guard count < 9 else { return nil }
        nanos = nanos * 10 + Int64(b[i] - 48)
        count += 1
        i += 1
      }
      guard count > 0 else { return nil }
      for _ in count..<9 { nanos *= 10 }
    }
    var offset: Int64 = 0
    guard i < b.count else { return nil }
    if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
      i += 1
    } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
      let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
      i += 1
      guard let oh = number(2), expect(":"), let om = number(2), oh < 24, om < 60 else { return nil }
      offset = sign * (oh * 3600 + om * 60)
    } else {
      return nil
    }
    guard i == b.count else { return nil }
    let seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset
    guard seconds >= minSeconds && seconds <= maxSeconds else { return nil }
    return (seconds, Int32(nanos))
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `-1.500s`, or nil when out of range or the signs of seconds and nanos disagree.
  static func formatDuration(seconds: Int64, nanos: Int32) -> String? {
    // Range checks without abs(), which traps on Int64.min / Int32.min from hostile bytes.
    guard seconds >= -maxDurationSeconds, seconds <= maxDurationSeconds, nanos >= -999_999_999, nanos <= 999_999_999,
      !(seconds > 0 && nanos < 0), !(seconds < 0 && nanos > 0)
    else { return nil }
    let negative = seconds < 0 || nanos < 0
    return (negative ? "-" : "") + String(abs(seconds)) + fraction(Int64(abs(nanos))) + "s"
  }

  /// Parses `1s`, `-0.5s`, `3.000000001s`.
  static func parseDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
    var b = Array(text.utf8)
    guard b.count >= 2, b.removeLast() == UInt8(ascii: "s") else { return nil }
    var negative = false
    if b.first == UInt8(ascii: "-") {
      negative = true
      b.removeFirst()
    }
    var seconds: Int64 = 0
    var i = 0
    var intDigits = 0
    while i < b.count && b[i] >= 48 && b[i] <= 57 {
      let (m, o1) = seconds.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(Int64(b[i] - 48))
      guard !o1 && !o2 else { return nil }
      seconds = s
      i += 1
      intDigits += 1
    }
    guard intDigits > 0 else { return nil }
    var nanos: Int64 = 0
    if i < b.count {
      guard b[i] == UInt8(ascii: ".") else { return nil }
      i += 1
      var count = 0
      while i < b.count && b[i] >= 48 && b[i] <= 57 {
        guard count < 9 else { return nil }
        nanos = nanos * 10 + Int64(b[i] - 48)
        count += 1
        i += 1
      }
      guard count > 0, i == b.count else { return nil }
      for _ in count..<9 { nanos *= 10 }
    }
    guard seconds <= maxDurationSeconds else { return nil }
    return negative ? (-seconds, Int32(-nanos)) : (seconds, Int32(nanos))
  }
}
