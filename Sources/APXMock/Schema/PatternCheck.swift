import APXCore

/// JSON Schema's `pattern`: an ECMA-262 regular expression that matches anywhere in the
/// string unless it is anchored. Matched by `LinearRegex`, the engine recipes and WebSocket
/// checks use, in time linear in the text: a request cannot stall the mock with a pattern
/// such as `^(a+)+$`. A pattern it cannot read (look-around, back-references) is not judged,
/// rather than refusing every request.
enum PatternCheck {
  /// Why `text` does not match `pattern`, or nil when it does or the pattern cannot be read.
  static func problem(_ text: String, pattern: String) -> String? {
    guard let regex = try? LinearRegex(pattern) else { return nil }
    // The value is not repeated: a field with a pattern may hold a secret.
    return regex.matches(in: text) ? nil : "must match the pattern \(pattern)"
  }
}
