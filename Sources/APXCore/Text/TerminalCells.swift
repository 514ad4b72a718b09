/// How many terminal cells text takes, as terminals draw it (the `wcwidth` rules): CJK and
/// other East Asian wide or fullwidth characters and emoji take two cells, combining marks
/// and other zero-width characters none, everything else one. Measured per grapheme cluster,
/// so a flag, an emoji with a skin tone or a family joined with ZWJ counts as one emoji (two
/// cells), as current terminals draw it.
public enum TerminalCells {
  /// The cells `text` takes on one line.
  public static func width(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// The longest start of `text` that fits in `cells` cells, never splitting a character.
  public static func prefix(_ text: String, fitting cells: Int) -> String {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let w = width(of: text[index])
      if used + w > cells { break }
      used += w
      end = text.index(after: index)
    }
    return String(text[..<end])
  }

  /// The cells one grapheme cluster takes.
  public static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    // Emoji presentation, by default or asked for with VS16 (U+FE0F).
    if scalars.contains(where: { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }) { return 2 }
    if isWide(first) { return 2 }
    return scalars.allSatisfy(isZeroWidth) ? 0 : 1
  }

  /// Combining marks, format characters (ZWJ, ZWNJ, bidi marks) and variation selectors.
  static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return true
    default: return (0xFE00...0xFE0F).contains(scalar.value) || (0x1160...0x11FF).contains(scalar.value)
    }
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, folded into
  /// the blocks that hold them (the standard library has no East Asian width property).
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (0x1100...0x115F).contains(v) || (0x2329...0x232A).contains(v)
      || (0x2E80...0x303E).contains(v) || (0x3041...0x33FF).contains(v) || (0x3400...0x4DBF).contains(v)
      || (0x4E00...0x9FFF).contains(v) || (0xA000...0xA4CF).contains(v) || (0xA960...0xA97F).contains(v)
      || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFE10...0xFE19).contains(v)
      || (0xFE30...0xFE6F).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
      || (0x20000...0x2FFFD).contains(v) || (0x30000...0x3FFFD).contains(v)
  }
}
