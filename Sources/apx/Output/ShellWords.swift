import APXCore

/// Quoting for command lines apx prints for a POSIX shell (`--curl`).
enum ShellWords {
  /// `word` as one shell word: bare when it holds only characters no shell treats
  /// specially, else in single quotes with each `'` written as `'\''` (the only
  /// form that is literal for every value, newlines and `$` included).
  static func quote(_ word: String) -> String {
    if !word.isEmpty, word.unicodeScalars.allSatisfy(isPlain), !word.hasPrefix("~") { return word }
    return "'" + word.replacingEach("'", with: "'\\''") + "'"
  }

  /// The words quoted and joined with spaces.
  static func line(_ words: [String]) -> String { words.map(quote).joined(separator: " ") }

  private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "%", "+", ",", "=": true
    default: false
    }
  }
}
