/// FieldMask paths in JSON are lowerCamelCase joined by commas; on the wire
/// they are snake_case. Conversions refuse paths that would not round-trip.
enum FieldMaskText {
  /// `user.display_name` -> `user.displayName`; nil when the path cannot be camel-cased reversibly.
  static func toCamel(_ path: String) -> String? {
    var out = ""
    var afterUnderscore = false
    for ch in path {
      if ch == "_" {
        if afterUnderscore { return nil }
        afterUnderscore = true
        continue
      }
      if afterUnderscore {
        guard ch.isLowercase else { return nil }
        out += ch.uppercased()
        afterUnderscore = false
      } else {
        if ch.isUppercase { return nil }
        out.append(ch)
      }
    }
    return afterUnderscore ? nil : out
  }

  /// `user.displayName` -> `user.display_name`; nil when the path already has underscores.
  static func toSnake(_ path: String) -> String? {
    var out = ""
    for ch in path {
      if ch == "_" { return nil }
      if ch.isUppercase {
        out += "_" + ch.lowercased()
      } else {
        out.append(ch)
      }
    }
    return out
  }
}
