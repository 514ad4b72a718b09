import APXCore
import Testing

/// `trimmingWhitespace` / `trimmingWhitespaceAndNewlines`: Foundation's `.whitespaces` and
/// `.whitespacesAndNewlines` trims, without Foundation.
@Suite("Whitespace trimming")
struct WhitespaceTrimmingTests {
  @Test func spacesAndTabsGoLineBreaksStayUnlessAsked() {
    #expect("  a b\t".trimmingWhitespace() == "a b")
    #expect("\u{00A0}\u{2003}x\u{3000}".trimmingWhitespace() == "x")  // category Zs
    #expect("\n a \n".trimmingWhitespace() == "\n a \n")
    #expect("\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029} a \r\n".trimmingWhitespaceAndNewlines() == "a")
    #expect(" \t ".trimmingWhitespace() == "")
    #expect("".trimmingWhitespaceAndNewlines() == "")
    #expect("x"[...].trimmingWhitespace() == "x")
  }

  @Test func onlyTheEndsAreTrimmed() {
    #expect(" a \u{2028} b ".trimmingWhitespaceAndNewlines() == "a \u{2028} b")
    #expect("\u{200B}a".trimmingWhitespace() == "\u{200B}a")  // zero-width space is not Zs
    // Ends that are printable ASCII take the quick path; any other end is looked at.
    #expect("a b".trimmingWhitespace() == "a b")
    #expect("a\u{00A0}".trimmingWhitespace() == "a")
    #expect("\u{3000}a".trimmingWhitespace() == "a")
  }
}
