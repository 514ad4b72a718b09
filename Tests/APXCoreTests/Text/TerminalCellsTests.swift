import Testing

@testable import APXCore

@Suite("Terminal cells")
struct TerminalCellsTests {
  @Test(arguments: [
    ("abc", 3), ("é", 1), ("e\u{301}", 1), ("中文", 4), ("ｶ", 1), ("Ａ", 2), ("한국어", 6), ("😀", 2),
    ("👍🏽", 2), ("🇯🇵", 2), ("👨‍👩‍👧", 2), ("❤️", 2), ("❤", 1), ("a\u{200B}b", 2), ("", 0),
  ])
  func width(_ text: String, _ cells: Int) {
    #expect(TerminalCells.width(text) == cells, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }

  @Test func aPrefixNeverSplitsAWideCharacter() {
    #expect(TerminalCells.prefix("中文字", fitting: 3) == "中")
    #expect(TerminalCells.prefix("中文字", fitting: 4) == "中文")
    #expect(TerminalCells.prefix("a😀b", fitting: 2) == "a")
    #expect(TerminalCells.prefix("abc", fitting: 0) == "")
  }
}
