/// How JSON text is laid out.
public enum JSONOutputStyle: Sendable, Hashable {
  /// No whitespace at all: `{"a":[1,2]}`.
  case compact
  /// Two-space indentation, one member or element per line, `"key": value`
  /// (the same layout as `jq .`). Empty containers print as `{}` and `[]`.
  case pretty
}
