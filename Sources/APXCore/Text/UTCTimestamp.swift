/// A moment as an ISO 8601 UTC timestamp with milliseconds, `2026-11-27T16:40:00.123Z`, computed
/// from the seconds since 1970 (proleptic Gregorian calendar, no leap seconds): the layout of
/// Foundation's `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` in UTC, without its
/// calendar machinery, for HAR entries written by the thousand.
public enum UTCTimestamp {
  /// The earliest moment written, 0001-01-01T00:00:00.000Z; earlier ones are written as it.
  static let earliest = -62_135_596_800.0
  /// The latest moment written, 9999-12-31T23:59:59.999Z; later ones are written as it.
  static let latest = 253_402_300_799.999

  /// `yyyy-MM-ddTHH:mm:ss.SSSZ` for `seconds` since 1970-01-01T00:00:00Z. The milliseconds are
  /// `seconds × 1000` cut to a whole number, not rounded, so `.9996` is `.999` of the same
  /// second; a moment before 1970 counts back (`-0.0004` is `1969-12-31T23:59:59.999Z`). NaN is
  /// the epoch.
  public static func iso8601(secondsSince1970 seconds: Double) -> String {
    let clamped = seconds.isNaN ? 0 : min(max(seconds, earliest), latest)
    let milliseconds = Int((clamped * 1000).rounded(.down))
    let (days, msOfDay) = floorDivision(milliseconds, 86_400_000)
    let (year, month, day) = HTTPDate.civilFromDays(days)
    let text = String(unsafeUninitializedCapacity: 24) { buffer in
      var i = 0
      func put(_ value: Int, digits: Int) {
        var v = value
        for k in stride(from: digits - 1, through: 0, by: -1) {
          buffer[i + k] = UInt8(ascii: "0") + UInt8(v % 10)
          v /= 10
        }
        i += digits
      }
      func put(_ ascii: Unicode.Scalar) {
        buffer[i] = UInt8(ascii: ascii)
        i += 1
      }
      put(year, digits: 4)
      put("-")
      put(month, digits: 2)
      put("-")
      put(day, digits: 2)
      put("T")
      put(msOfDay / 3_600_000, digits: 2)
      put(":")
      put(msOfDay / 60_000 % 60, digits: 2)
      put(":")
      put(msOfDay / 1000 % 60, digits: 2)
      put(".")
      put(msOfDay % 1000, digits: 3)
      put("Z")
      return i
    }
    return text
  }

  /// Quotient and remainder rounded toward minus infinity (the remainder is never negative).
  private static func floorDivision(_ a: Int, _ b: Int) -> (Int, Int) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
  }
}
