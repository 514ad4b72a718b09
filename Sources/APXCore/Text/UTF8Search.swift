extension String {
  /// Whether `needle` occurs in this text, compared byte for byte in UTF-8. The standard
  /// library's `contains(_:)` compares Characters through generic searchers, a cost that
  /// showed in every call's profile where names are matched against a few fixed words.
  public func containsUTF8(_ needle: String) -> Bool {
    var haystack = self
    var needle = needle
    return haystack.withUTF8 { text in
      needle.withUTF8 { pattern in
        guard let first = pattern.first else { return true }
        guard pattern.count <= text.count else { return false }
        var i = 0
        while i <= text.count - pattern.count {
          if text[i] == first, UnsafeBufferPointer(rebasing: text[i..<(i + pattern.count)]).elementsEqual(pattern) {
            return true
          }
          i += 1
        }
        return false
      }
    }
  }
}

extension String {
  /// Every occurrence of `needle` replaced, matched byte for byte in UTF-8 (so a secret is
  /// found even where a combining mark follows it); an empty needle changes nothing.
  public func replacingUTF8(_ needle: String, with replacement: String) -> String {
    // Most texts hold no secret: answering that needs no copy.
    guard !needle.isEmpty, containsUTF8(needle) else { return self }
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
