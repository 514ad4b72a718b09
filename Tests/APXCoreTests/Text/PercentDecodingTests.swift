import APXCore
import Testing

/// `PercentDecoding`: `%XX` bytes as UTF-8, anything malformed kept as written.
@Suite("Percent-decoding")
struct PercentDecodingTests {
  @Test func escapesBecomeTheirUTF8Bytes() {
    #expect(PercentDecoding.decode("token%20expired%21") == "token expired!")
    #expect(PercentDecoding.decode("caf%C3%A9") == "café")
    #expect(PercentDecoding.decode("a~1b%7E") == "a~1b~")
  }

  @Test func malformedEscapesAreKept() {
    #expect(PercentDecoding.decode("100%") == "100%")
    #expect(PercentDecoding.decode("%zz%4") == "%zz%4")
    #expect(PercentDecoding.decode("%+f") == "%+f")
    #expect(PercentDecoding.decode("no escapes") == "no escapes")
    // A lone byte that is not UTF-8 becomes U+FFFD rather than trapping.
    #expect(PercentDecoding.decode("%FF") == "\u{FFFD}")
  }
}
