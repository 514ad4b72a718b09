import APXCore
import Testing

/// `escapingTerminalControls`: what a server chose is shown on stderr, never acted on by the terminal.
@Suite("Terminal controls escaped")
struct TerminalTextTests {
  @Test func controlsBecomeVisibleEscapes() {
    #expect("\u{1B}]0;pwned\u{07}".escapingTerminalControls() == #"\u{1B}]0;pwned\u{07}"#)
    #expect("a\u{00}b\rc\u{7F}d".escapingTerminalControls() == #"a\u{00}b\u{0D}c\u{7F}d"#)
    // C1 controls, at both ends of U+0080-U+009F.
    #expect("\u{80}x\u{9B}31m\u{9F}".escapingTerminalControls() == #"\u{80}x\u{9B}31m\u{9F}"#)
  }

  @Test func tabsNewlinesAndOtherTextStay() {
    let text = "line 1\n\tline 2 é ✓ \u{A0}\u{7E} 日本\u{1F600}"
    #expect(text.escapingTerminalControls() == text)
    #expect("".escapingTerminalControls() == "")
  }

  @Test func escapingTwiceChangesNothingMore() {
    let once = "x\u{1B}[2Jy\u{85}".escapingTerminalControls()
    #expect(once == #"x\u{1B}[2Jy\u{85}"#)
    #expect(once.escapingTerminalControls() == once)
  }

  @Test func anErrorIsRenderedEscaped() {
    let error = APXError(.httpServerError, "GET / answered 500", hint: "try \u{1B}[8m", cause: "body \u{1B}]0;t\u{07}")
    #expect(
      error.description == """
        error: GET / answered 500
          cause: body \\u{1B}]0;t\\u{07}
          hint: try \\u{1B}[8m
        """)
  }
}
