extension StringProtocol {
  /// The text with every control character a terminal would act on shown as a visible escape,
  /// `\u{1B}`: C0 controls (U+0000-U+001F) except tab and line feed, DEL (U+007F) and the C1
  /// controls (U+0080-U+009F). For text apx writes to stderr that a server may have chosen (a
  /// reason phrase, a gRPC status message, an error body, a header under `-v`): an ESC sequence
  /// there could retitle the window, hide text or fake apx's own output. Stdout is never passed
  /// through this: a response body is the user's data, kept byte for byte.
  public func escapingTerminalControls() -> String {
    // Fast path: UTF-8 gives C1 controls as C2 80...C2 9F, so a scan of the bytes finds all three kinds.
    var previous: UInt8 = 0
    let clean = utf8.allSatisfy { byte in
      defer { previous = byte }
      if byte < 0x20 { return byte == 0x09 || byte == 0x0A }
      if byte == 0x7F { return false }
      return !(previous == 0xC2 && (0x80...0x9F).contains(byte))
    }
    if clean { return String(self) }
    var out = String.UnicodeScalarView()
    for scalar in unicodeScalars {
      guard scalar.isTerminalControl else {
        out.append(scalar)
        continue
      }
      let hex = String(scalar.value, radix: 16, uppercase: true)
      out.append(contentsOf: "\\u{\(hex.count < 2 ? "0" + hex : hex)}".unicodeScalars)
    }
    return String(out)
  }
}

extension Unicode.Scalar {
  /// A C0 control other than tab and line feed, DEL, or a C1 control (see `escapingTerminalControls`).
  fileprivate var isTerminalControl: Bool {
    switch value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    default: false
    }
  }
}
