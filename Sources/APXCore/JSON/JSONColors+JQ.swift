extension JSONColors {
  /// A scheme from a `JQ_COLORS`-style value, so users keep the colours they
  /// set for jq: colon-separated SGR codes for null, false, true, numbers,
  /// strings, arrays, objects and (jq 1.7.1+) object keys, e.g.
  /// `"0;90:0;39:0;39:0;39:0;32:1;39:1;39:34;1"`. Fields left out keep the
  /// value from `base`; `true` sets the boolean colour, arrays set punctuation.
  ///
  /// Returns `nil` when a field holds anything but digits and `;` (jq ignores
  /// an invalid `JQ_COLORS` the same way).
  public init?(jqColors: String, base: JSONColors = .default) {
    let fields = jqColors.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard fields.count <= 8,
      fields.allSatisfy({ $0.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ";") } })
    else { return nil }
    self = base
    func field(_ i: Int) -> String? { i < fields.count ? fields[i] : nil }
    if let v = field(0) { null = v }
    if let v = field(2) ?? field(1) { bool = v }
    if let v = field(3) { number = v }
    if let v = field(4) { string = v }
    if let v = field(5) { punctuation = v }
    if let v = field(7) { key = v }
  }
}
