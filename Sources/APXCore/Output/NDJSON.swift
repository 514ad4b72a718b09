/// Newline-delimited JSON: one compact JSON text per line, for streams
/// (`-o ndjson`, SSE events and gRPC messages when piped).
public enum NDJSON {
  /// Appends `value` as compact JSON followed by `\n` (optionally coloured).
  public static func append(_ value: JSONValue, to out: inout [UInt8], colors: JSONColors? = nil) {
    JSONPrinter(style: .compact, colors: colors).write(value, into: &out)
    out.append(0x0A)
  }

  /// One line for `value`: compact JSON and `\n`.
  public static func line(_ value: JSONValue, colors: JSONColors? = nil) -> [UInt8] {
    var out: [UInt8] = []
    append(value, to: &out, colors: colors)
    return out
  }
}
