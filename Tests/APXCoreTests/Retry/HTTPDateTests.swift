import Testing

@testable import APXCore

/// HTTP-date parsing (all three RFC 9110 forms) and IMF-fixdate formatting.
@Suite struct HTTPDateTests {
  /// Sun, 06 Nov 1994 08:49:37 GMT, the RFC's example (checked with `date -u -d @784111777`).
  static let rfcExample = 784_111_777.0
  /// 2026-11-21T00:00:00Z, a fixed "now".
  static let now2026 = 1_795_219_200.0

  @Test(arguments: [
    "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
    "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
    "Sun Nov  6 08:49:37 1994",  // asctime
  ])
  func theThreeFormsOfTheRFCExample(_ text: String) {
    #expect(HTTPDate.parse(text, now: Self.rfcExample) == Self.rfcExample)
  }

  @Test func knownInstants() {
    #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT", now: 0) == 0)
    #expect(HTTPDate.parse("Wed, 31 Dec 1969 23:59:59 GMT", now: 0) == -1)
    #expect(HTTPDate.parse("Tue, 29 Feb 2000 12:00:00 GMT", now: 0) == 951_825_600)
    #expect(HTTPDate.parse("Sat, 21 Nov 2026 00:00:00 GMT", now: 0) == Self.now2026)
    #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: 0) == 253_402_300_799)
    #expect(HTTPDate.parse("Mon, 01 Jan 0001 00:00:00 GMT", now: 0) == -62_135_596_800)
  }

  @Test func lenientButUnambiguousVariants() {
    let expected = Self.rfcExample
    for text in [
      "sun, 06 nov 1994 08:49:37 gmt",  // any case
      "SUN, 06 NOV 1994 08:49:37 GMT",
      "Sun, 6 Nov 1994 08:49:37 GMT",  // one-digit day
      "Sun, 06 Nov 1994 08:49:37 UTC",
      "  Sun, 06 Nov 1994 08:49:37 GMT \t",  // surrounding whitespace
      "Sun,06 Nov 1994 08:49:37 GMT",
      "Sun, 06  Nov 1994  08:49:37  GMT",
      "Sunday, 06-Nov-1994 08:49:37 GMT",  // RFC 850 with a four-digit year
      "Sun Nov 06 08:49:37 1994",  // asctime with a zero-padded day
      "Sun Nov 6 08:49:37 1994",
      "Sunday, 06 Nov 1994 08:49:37 GMT",  // long day name in IMF form
    ] {
      #expect(HTTPDate.parse(text, now: expected) == expected, "\(text.debugDescription)")
    }
  }

  @Test func leapSecondIsAccepted() {
    #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT", now: 0) == 1_483_228_800)
  }

  @Test(arguments: [
    "",
    " ",
    "Sun, 06 Nov 1994 08:49:37",  // no zone
    "Sun, 06 Nov 1994 08:49:37 PST",  // not GMT
    "Sun, 06 Nov 1994 08:49:37 +0000",
    "Sun, 06 Nov 1994 08:49:37 GMT x",  // trailing garbage
    "Foo, 06 Nov 1994 08:49:37 GMT",  // unknown day name
    "Sun, 06 Nox 1994 08:49:37 GMT",  // unknown month
    "Sun, 06 November 1994 08:49:37 GMT",
    "Sun, 31 Apr 1994 08:49:37 GMT",  // April has 30 days
    "Sun, 30 Feb 2000 08:49:37 GMT",
    "Thu, 29 Feb 1900 08:49:37 GMT",  // 1900 is not a leap year
    "Thu, 29 Feb 2023 08:49:37 GMT",
    "Sun, 00 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:00 GMT",
    "Sun, 06 Nov 1994 08:49:61 GMT",
    "Sun, 06 Nov 1994 8:49:37 GMT",  // one-digit hour
    "Sun, 06 Nov 94 08:49:37 GMT",  // two-digit year in IMF form
    "Sun, 06 Nov 01994 08:49:37 GMT",
    "Sun, 106 Nov 1994 08:49:37 GMT",
    "Sunday, 06-Nov-994 08:49:37 GMT",  // three-digit year
    "Sunday, 06-Nov-94 08:49:37",
    "Sunday 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 94",  // asctime with two-digit year
    "Sun Nov  6 08:49:37 1994 GMT",
    "Sun Nov  6 08:49 1994",
    "Sun, 06 Nov 1994 08:49:37 GMT\u{0}",
    "1994-11-06T08:49:37Z",  // ISO 8601 is not an HTTP-date
    "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT",
    "Sün, 06 Nov 1994 08:49:37 GMT",
  ])
  func malformedDatesAreRejected(_ text: String) {
    #expect(HTTPDate.parse(text, now: Self.rfcExample) == nil)
  }

  @Test func rfc850TwoDigitYearsUseTheFiftyYearRule() {
    // now = 2026: up to 2076 is the future, 77..99 are the 1900s.
    #expect(HTTPDate.parse("Wednesday, 01-Jan-76 00:00:00 GMT", now: Self.now2026) == 3_345_062_400)  // 2076
    #expect(HTTPDate.parse("Saturday, 01-Jan-77 00:00:00 GMT", now: Self.now2026) == 220_924_800)  // 1977
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: Self.now2026) == Self.rfcExample)
    let in2026 = HTTPDate.parse("Saturday, 21-Nov-26 00:00:00 GMT", now: Self.now2026)
    #expect(in2026 == Self.now2026)
    // now = 1994: 44 is 2044 (50 years ahead), 45 is 1945.
    let year2044 = HTTPDate.parse("Friday, 01-Jan-44 00:00:00 GMT", now: Self.rfcExample)
    #expect(year2044 == Double(HTTPDate.daysFromCivil(year: 2044, month: 1, day: 1)) * 86_400)
    let year1945 = HTTPDate.parse("Monday, 01-Jan-45 00:00:00 GMT", now: Self.rfcExample)
    #expect(year1945 == Double(HTTPDate.daysFromCivil(year: 1945, month: 1, day: 1)) * 86_400)
    // now = 2026: 25 would be 2125 (99 years ahead), so it is 2025.
    let year2025 = HTTPDate.parse("Wednesday, 01-Jan-25 00:00:00 GMT", now: Self.now2026)
    #expect(year2025 == Double(HTTPDate.daysFromCivil(year: 2025, month: 1, day: 1)) * 86_400)
    // A meaningless `now` still gives an answer (the 1970s epoch century).
    #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: .nan) == Self.rfcExample)
  }

  @Test func formatsIMFFixdate() {
    #expect(HTTPDate.format(Self.rfcExample) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.format(Self.rfcExample + 0.999) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(HTTPDate.format(-1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    #expect(HTTPDate.format(-0.5) == "Wed, 31 Dec 1969 23:59:59 GMT")
    #expect(HTTPDate.format(253_402_300_799) == "Fri, 31 Dec 9999 23:59:59 GMT")
    #expect(HTTPDate.format(-62_135_596_800) == "Mon, 01 Jan 0001 00:00:00 GMT")
    #expect(HTTPDate.format(253_402_300_800) == nil)
    #expect(HTTPDate.format(.nan) == nil)
    #expect(HTTPDate.format(-.infinity) == nil)
  }

  @Test func formatAndParseRoundTripOverTenThousandYears() {
    var random = SeededRandom(seed: 0xDA7E)
    for _ in 0..<5000 {
      let seconds = Double(Int.random(in: -62_167_219_200..<253_402_300_800, using: &random))
      guard let text = HTTPDate.format(seconds) else {
        Issue.record("could not format \(seconds)")
        continue
      }
      #expect(HTTPDate.parse(text, now: 0) == seconds, "\(text)")
    }
  }

  @Test func civilCalendarMatchesADayByDayWalk() {
    // An independent calendar: count days forward from 1970-01-01 to 2400 and
    // backward to 1600, with leap years computed here.
    func isLeap(_ y: Int) -> Bool { y % 400 == 0 || (y % 4 == 0 && y % 100 != 0) }
    func length(_ y: Int, _ m: Int) -> Int {
      [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }
    var (year, month, day, days) = (1970, 1, 1, 0)
    while year < 2400 {
      if HTTPDate.daysFromCivil(year: year, month: month, day: day) != days
        || HTTPDate.civilFromDays(days) != (year, month, day)
      {
        Issue.record("mismatch at \(year)-\(month)-\(day) (day \(days))")
        return
      }
      days += 1
      day += 1
      if day > length(year, month) {
        day = 1
        month += 1
        if month > 12 { (month, year) = (1, year + 1) }
      }
    }
    (year, month, day, days) = (1969, 12, 31, -1)
    while year >= 1600 {
      if HTTPDate.daysFromCivil(year: year, month: month, day: day) != days
        || HTTPDate.civilFromDays(days) != (year, month, day)
      {
        Issue.record("mismatch at \(year)-\(month)-\(day) (day \(days))")
        return
      }
      days -= 1
      day -= 1
      if day < 1 {
        month -= 1
        if month < 1 { (month, year) = (12, year - 1) }
        day = length(year, month)
      }
    }
  }

  @Test func weekdaysOfFormattedDatesAreRight() {
    // 2000-01-01 was a Saturday; walk a few weeks.
    let start = Double(HTTPDate.daysFromCivil(year: 2000, month: 1, day: 1)) * 86_400
    let names = ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"]
    for offset in 0..<21 {
      let text = HTTPDate.format(start + Double(offset) * 86_400) ?? ""
      #expect(text.hasPrefix(names[offset % 7] + ","), "\(text)")
    }
  }
}
