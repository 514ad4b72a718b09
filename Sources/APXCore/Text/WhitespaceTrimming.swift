extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (Unicode category Zs and U+0009):
  /// what Foundation's `trimmingCharacters(in: .whitespaces)` returns. apx does not link
  /// full Foundation (its ICU data alone is 34 MB).
  public func trimmingWhitespace() -> String { trimmed(newlinesToo: false) }

  /// The text without leading and trailing whitespace and line breaks (categories Zs, Zl,
  /// Zp, U+0009-U+000D and U+0085): Foundation's `.whitespacesAndNewlines`.
  public func trimmingWhitespaceAndNewlines() -> String { trimmed(newlinesToo: true) }

  private func trimmed(newlinesToo: Bool) -> String {
    // Most text has neither leading nor trailing space: two ASCII bytes that are not
    // whitespace answer without looking at Unicode properties.
    let text = String(self)
    if let head = text.utf8.first, let tail = text.utf8.last, head > 0x20, head < 0x80, tail > 0x20, tail < 0x80 {
      return text
    }
    let scalars = text.unicodeScalars
    let isTrimmed = { (s: Unicode.Scalar) -> Bool in
      if s == "\t" || s.properties.generalCategory == .spaceSeparator { return true }
      guard newlinesToo else { return false }
      if (0x0A...0x0D).contains(s.value) || s.value == 0x85 { return true }
      return s.properties.generalCategory == .lineSeparator || s.properties.generalCategory == .paragraphSeparator
    }
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}

extension String {
  /// Every `scalar` replaced by `replacement`, matched scalar by scalar: a quote followed by a
  /// combining mark is still a quote to a shell, though Swift's `replacing(_:with:)` compares
  /// whole characters and would leave it alone.
  public func replacingEach(_ scalar: Unicode.Scalar, with replacement: String) -> String {
    guard unicodeScalars.contains(scalar) else { return self }
    var out = String.UnicodeScalarView()
    for s in unicodeScalars {
      if s == scalar { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(s) }
    }
    return String(out)
  }
}
