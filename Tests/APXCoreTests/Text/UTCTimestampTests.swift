import Foundation
import Testing

@testable import APXCore

@Suite("UTCTimestamp")
struct UTCTimestampTests {
  @Test("known moments, leap days and century years included")
  func knownValues() {
    let cases: [(Double, String)] = [
      (0, "1970-01-01T00:00:00.000Z"),
      (951_782_400, "2000-02-29T00:00:00.000Z"),  // 2000 is a leap year (divisible by 400)
      (951_868_800, "2000-03-01T00:00:00.000Z"),
      (1_709_164_800.5, "2024-02-29T00:00:00.500Z"),
      (4_107_456_000, "2100-02-28T00:00:00.000Z"),
      (4_107_542_400, "2100-03-01T00:00:00.000Z"),  // 2100 is not (divisible by 100 only)
      (-2_203_891_200, "1900-03-01T00:00:00.000Z"),
      (1_764_261_600.123, "2025-11-27T16:40:00.123Z"),
      (1_767_225_599.999, "2025-12-31T23:59:59.999Z"),
      (1_767_225_600, "2026-01-01T00:00:00.000Z"),
      (-1, "1969-12-31T23:59:59.000Z"),
      (253_402_300_799, "9999-12-31T23:59:59.000Z"),
    ]
    for (seconds, text) in cases { #expect(UTCTimestamp.iso8601(secondsSince1970: seconds) == text, "\(seconds)") }
  }

  @Test("milliseconds are cut, not rounded, before 1970 too")
  func millisecondsAreCut() {
    #expect(UTCTimestamp.iso8601(secondsSince1970: 0.0009) == "1970-01-01T00:00:00.000Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: 59.9996) == "1970-01-01T00:00:59.999Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: 1_764_261_600.9996) == "2025-11-27T16:40:00.999Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: -0.0004) == "1969-12-31T23:59:59.999Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: -1.0005) == "1969-12-31T23:59:58.999Z")
  }

  @Test("moments outside years 1 to 9999, and NaN, do not trap")
  func outOfRange() {
    #expect(UTCTimestamp.iso8601(secondsSince1970: 1e300) == "9999-12-31T23:59:59.999Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: .infinity) == "9999-12-31T23:59:59.999Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: -1e300) == "0001-01-01T00:00:00.000Z")
    #expect(UTCTimestamp.iso8601(secondsSince1970: .nan) == "1970-01-01T00:00:00.000Z")
  }

  /// Foundation's ISO 8601 style, which HAR entries used before, gives the same date and time.
  /// The fractions are exact in binary: for others the two may differ by the millisecond a
  /// float's error lands in (Foundation's own releases differ there: cut, then rounded).
  @Test("the same text as Foundation's ISO 8601 style with fractional seconds")
  func matchesFoundation() {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    var generator = SystemRandomNumberGenerator()
    let fractions = [0, 0.125, 0.25, 0.5, 0.875]
    var moments: [Double] = []
    for i in 0..<5000 {
      let second = Int64.random(in: -4_000_000_000...5_000_000_000, using: &generator)
      moments.append(Double(second) + fractions[i % fractions.count])
    }
    // Every day of a leap year and of the year after, a moment before midnight and one after.
    for day in 0..<731 {
      let midnight: Double = 946_684_800 + Double(day) * 86_400
      moments += [midnight - 0.125, midnight]
    }
    for seconds in moments {
      let expected = Date(timeIntervalSince1970: seconds).formatted(style)
      #expect(UTCTimestamp.iso8601(secondsSince1970: seconds) == expected, "\(seconds)")
    }
  }
}
