import APXCore
import Testing

/// `containsUTF8` and `replacingUTF8`: byte-for-byte search, where the standard library's
/// Character comparison would see a different string.
@Suite("UTF-8 search")
struct UTF8SearchTests {
  @Test func containsComparesBytes() {
    #expect("x-vault-token".containsUTF8("token"))
    #expect(!"x-vault-tok".containsUTF8("token"))
    #expect("abc".containsUTF8(""))
    #expect(!"".containsUTF8("a"))
    #expect("token".containsUTF8("token"))
    // "e" followed by a combining acute accent is one Character, but its bytes hold an "e".
    #expect("cafe\u{301}".containsUTF8("cafe"))
  }

  @Test func replacingFindsEveryOccurrenceOrReturnsTheTextAsItIs() {
    #expect("a=SECRET&b=SECRET".replacingUTF8("SECRET", with: "***") == "a=***&b=***")
    #expect("nothing here".replacingUTF8("SECRET", with: "***") == "nothing here")
    #expect("SECRET\u{301}".replacingUTF8("SECRET", with: "***") == "***\u{301}")
    #expect("abc".replacingUTF8("", with: "***") == "abc")
  }
}
