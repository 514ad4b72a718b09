/// JSON Schema's `pattern`: an ECMA-262 regular expression that matches anywhere in the
/// string unless it is anchored. Swift's `Regex` reads the same syntax for what descriptions
/// use (classes, quantifiers, groups, alternation, anchors); a pattern it cannot read is not
/// judged, rather than refusing every request.
enum PatternCheck {
  /// Why `text` does not match `pattern`, or nil when it does or the pattern cannot be read.
  static func problem(_ text: String, pattern: String) -> String? {
    guard let regex = try? Regex(pattern) else { return nil }
    let matched = (try? regex.matchingSemantics(.unicodeScalar).firstMatch(in: text)) != nil
    // The value is not repeated: a field with a pattern may hold a secret.
    return matched ? nil : "must match the pattern \(pattern)"
  }
}
