import APXCore

/// An HAR entry's JSON text as it prints in the archive, nested `HARLog.entryDepth` deep: the
/// keys, indentation and punctuation of the entry's fixed layout are written as literal runs,
/// and only values are escaped. `HARRecorder` writes an entry this way for every exchange; the
/// runs must lay the text out as `JSONPrinter` prints the same value there (the HAR tests
/// compare the two).
struct HAREntryText {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) { bytes.reserveCapacity(capacity) }

  /// Continues `bytes` (an archive's chunk, whose texts stay as they are).
  init(appendingTo bytes: [UInt8]) { self.bytes = bytes }

  /// Appends text already laid out (keys, punctuation, line breaks and indentation).
  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends a value's text written by a `JSONWriter` begun at the depth of this place.
  mutating func raw(_ text: [UInt8]) { bytes.append(contentsOf: text) }

  /// Appends a string value, quoted and escaped.
  mutating func string(_ text: String) { JSONStringEscaper.appendQuoted(text, to: &bytes) }

  /// Appends a string value from its UTF-8 bytes (valid UTF-8, which the caller has checked).
  mutating func string(utf8 text: [UInt8]) {
    bytes.append(0x22)
    text.withUnsafeBufferPointer { JSONStringEscaper.appendEscaped($0, to: &bytes) }
    bytes.append(0x22)
  }

  /// Appends an integer value.
  mutating func int(_ n: Int) { bytes.append(contentsOf: String(n).utf8) }

  /// Appends a number value as Swift prints the `Double` (`5.069`, `0.0`).
  mutating func number(_ x: Double) { bytes.append(contentsOf: String(x).utf8) }

  /// Appends one `{"name": ..., "value": ...}` of a list that is the value of a request's or
  /// answer's member (`headers`, `queryString`); `first` opens the list.
  mutating func pair(_ name: String, _ value: String, first: Bool) {
    raw(first ? "[\n            {\n              \"name\": " : ",\n            {\n              \"name\": ")
    string(name)
    raw(",\n              \"value\": ")
    string(value)
    raw("\n            }")
  }

  /// Ends a list of `pair`s: `]` on its own line, or `[]` when it had none.
  mutating func endPairs(any: Bool) { raw(any ? "\n          ]" : "[]") }
}
