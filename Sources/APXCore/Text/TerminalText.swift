extension StringProtocol {
  /// The text with every control character a terminal would act on shown as a visible escape,
  /// `\u{1B}`: C0 controls (U+0000-U+001F) except tab and line feed, DEL (U+007F) and the C1
  /// controls (U+0080-U+009F), and the bidirectional controls (`isBidiControl`). For text apx writes to stderr that a server may have chosen (a
  /// reason phrase, a gRPC status message, an error body, a header under `-v`): an ESC sequence
  /// there could retitle the window, hide text or fake apx's own output. Stdout is never passed
  /// through this: a response body is the user's data, kept byte for byte.
  public func escapingTerminalControls() -> String {
    // Fast path: UTF-8 gives C1 controls as C2 80...C2 9F, so a scan of the bytes finds all three
    // kinds; a bidi control starts with D8 (U+061C) or E2 (U+200E...U+2069), which sends the
    // text to the exact check.
    var previous: UInt8 = 0
    let clean = utf8.allSatisfy { byte in
      defer { previous = byte }
      if byte < 0x20 { return byte == 0x09 || byte == 0x0A }
      if byte == 0x7F || byte == 0xD8 || byte == 0xE2 { return false }
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
  /// A C0 control other than tab and line feed, DEL, a C1 control, or a bidi control (see
  /// `escapingTerminalControls`).
  fileprivate var isTerminalControl: Bool {
    switch value {
    case 0x09, 0x0A: false
    case 0x00...0x1F, 0x7F...0x9F: true
    default: isBidiControl
    }
  }

  /// A Unicode bidirectional control: the marks (U+061C, U+200E, U+200F), embeddings and
  /// overrides (U+202A-U+202E) and isolates (U+2066-U+2069). Shown raw, U+202E turns what
  /// follows around on screen, so a registry's text could read as something it is not.
  public var isBidiControl: Bool {
    switch value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
