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

extension String {
  /// Every occurrence of `needle` replaced, matched byte for byte in UTF-8 (so a secret is
  /// found even where a combining mark follows it); an empty needle changes nothing.
  public func replacingUTF8(_ needle: String, with replacement: String) -> String {
    let text = Array(utf8)
    let pattern = Array(needle.utf8)
    guard let first = pattern.first, pattern.count <= text.count else { return self }
    var out: [UInt8] = []
    var i = 0
    var changed = false
    while i < text.count {
      if text[i] == first, i + pattern.count <= text.count, text[i..<i + pattern.count].elementsEqual(pattern) {
        out.append(contentsOf: replacement.utf8)
        i += pattern.count
        changed = true
      } else {
        out.append(text[i])
        i += 1
      }
    }
    return changed ? String(decoding: out, as: UTF8.self) : self
  }
}
