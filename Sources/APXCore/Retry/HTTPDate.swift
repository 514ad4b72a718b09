/// HTTP-date (RFC 9110 §5.6.7), parsed and formatted by hand over the bytes:
/// APXCore reads no clock and uses no Foundation date types, so the caller
/// passes the current time in.
///
/// All three forms are accepted, as the RFC requires of recipients:
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`
/// - obsolete asctime: `Sun Nov  6 08:49:37 1994`
///
/// Leniencies real servers need: names in any case, one-digit days, `UTC` for
/// `GMT`, extra spaces between parts, and surrounding whitespace. The weekday
/// must be a real day name but is not checked against the date.
public enum HTTPDate {
  /// The instant `text` denotes, in seconds since 1970-01-01T00:00:00Z, or nil
  /// when it is not an HTTP-date or names an impossible date (Feb 30, 24:00).
  ///
  /// - Parameter now: the current time in seconds since 1970, used only to
  ///   place an RFC 850 two-digit year: one more than 50 years in the future
  ///   means the most recent past year with those digits.
  public static func parse(_ text: String, now: Double) -> Double? {
    var scanner = Scanner(Array(text.utf8))
    scanner.skipWhitespace()
    guard let weekday = scanner.letters(), weekdayNames.contains(weekday) else { return nil }

    let date: (year: Int, month: Int, day: Int, time: Int)
    if scanner.take(comma) {
      scanner.skipWhitespace()
      guard let day = scanner.digits(1...2) else { return nil }
      if scanner.take(space) {
        // IMF-fixdate: day SP month SP year SP time SP GMT
        scanner.skipWhitespace()
        guard let month = scanner.month(), scanner.skipWhitespace(required: true),
          let year = scanner.digits(4...4), scanner.skipWhitespace(required: true),
          let time = scanner.timeOfDay(), scanner.skipWhitespace(required: true), scanner.gmt()
        else { return nil }
        date = (year, month, day, time)
      } else if scanner.take(dash) {
        // RFC 850: day-month-yy SP time SP GMT
        guard let month = scanner.month(), scanner.take(dash) else { return nil }
        let yearStart = scanner.index
        guard let yy = scanner.digits(2...4) else { return nil }
        let yearDigits = scanner.index - yearStart
        guard yearDigits != 3, scanner.skipWhitespace(required: true), let time = scanner.timeOfDay(),
          scanner.skipWhitespace(required: true), scanner.gmt()
        else { return nil }
        // Two digits per the RFC; four digits are a common variant.
        let year = yearDigits == 2 ? fullYear(twoDigits: yy, now: now) : yy
        date = (year, month, day, time)
      } else {
        return nil
      }
    } else if scanner.skipWhitespace(required: true) {
      // asctime: month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP year
      guard let month = scanner.month(), scanner.skipWhitespace(required: true),
        let day = scanner.digits(1...2), scanner.skipWhitespace(required: true),
        let time = scanner.timeOfDay(), scanner.skipWhitespace(required: true),
        let year = scanner.digits(4...4)
      else { return nil }
      date = (year, month, day, time)
    } else {
      return nil
    }
    scanner.skipWhitespace()
    guard scanner.atEnd, (1...daysInMonth(year: date.year, month: date.month)).contains(date.day) else {
      return nil
    }
    let days = daysFromCivil(year: date.year, month: date.month, day: date.day)
    return Double(days) * 86_400 + Double(date.time)
  }

  /// `seconds` (since 1970, fractions dropped) as an IMF-fixdate, e.g.
  /// `Sun, 06 Nov 1994 08:49:37 GMT`; nil outside years 0000-9999.
  public static func format(_ seconds: Double) -> String? {
    guard seconds.isFinite, seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return nil }
    let whole = Int(seconds.rounded(.down))
    let days = floorDivide(whole, 86_400)
    let secondOfDay = whole - days * 86_400
    let (year, month, day) = civilFromDays(days)
    let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (index 4)
    return "\(weekdayShort[weekday]), \(pad(day, 2)) \(monthShort[month - 1]) \(pad(year, 4)) "
      + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
  }

  // MARK: - Calendar arithmetic (proleptic Gregorian, after Howard Hinnant)

  /// Days from 1970-01-01 to the given date (negative before it).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = floorDivide(y, 400)
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `days` days after 1970-01-01.
  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// RFC 9110: a two-digit year more than 50 years ahead of `now` is the most
  /// recent past year with the same last two digits.
  static func fullYear(twoDigits yy: Int, now: Double) -> Int {
    let nowDays = now.isFinite ? floorDivide(Int(max(min(now, 1e15), -1e15)), 86_400) : 0
    let currentYear = civilFromDays(nowDays).year
    // The next year (this one included) ending in `yy`, unless too far ahead.
    var candidate = floorDivide(currentYear, 100) * 100 + yy
    if candidate < currentYear { candidate += 100 }
    return candidate > currentYear + 50 ? candidate - 100 : candidate
  }

  private static func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  private static let weekdayShort = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let monthShort = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  private static let weekdayNames: Set<String> = [
    "sun", "mon", "tue", "wed", "thu", "fri", "sat",
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]
  private static let comma: UInt8 = 0x2C
  private static let dash: UInt8 = 0x2D
  private static let space: UInt8 = 0x20

  /// A cursor over the date's bytes.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// Skips spaces and tabs; with `required`, reports whether there was one.
    @discardableResult
    mutating func skipWhitespace(required: Bool = false) -> Bool {
      let start = index
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      return !required || index > start
    }

    /// A run of ASCII letters, lowercased; nil when there is none.
    mutating func letters() -> String? {
      let start = index
      var lowered: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        if byte >= 0x41, byte <= 0x5A {
          lowered.append(byte + 0x20)
        } else if byte >= 0x61, byte <= 0x7A {
          lowered.append(byte)
        } else {
          break
        }
        index += 1
      }
      return index > start ? String(decoding: lowered, as: UTF8.self) : nil
    }

    /// A decimal number whose digit count is in `count`.
    mutating func digits(_ count: ClosedRange<Int>) -> Int? {
      var value = 0
      var taken = 0
      while index < bytes.count, taken < count.upperBound, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
        taken += 1
      }
      return count.contains(taken) ? value : nil
    }

    /// A three-letter month name, as 1...12.
    mutating func month() -> Int? {
      guard let name = letters(), let index = HTTPDate.monthShort.firstIndex(where: { $0.lowercased() == name })
      else { return nil }
      return index + 1
    }

    /// `HH:MM:SS` as seconds since midnight (second 60, a leap second, allowed).
    mutating func timeOfDay() -> Int? {
      guard let hour = digits(2...2), hour < 24, take(0x3A), let minute = digits(2...2), minute < 60,
        take(0x3A), let second = digits(2...2), second <= 60
      else { return nil }
      return hour * 3600 + minute * 60 + second
    }

    /// The `GMT` zone (or `UTC`, which some servers send).
    mutating func gmt() -> Bool {
      guard let zone = letters() else { return false }
      return zone == "gmt" || zone == "utc"
    }
  }
}
