/// What `-o/--output` asks for.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
  /// JSON: pretty (and coloured) on a terminal, compact when piped.
  case json
  /// One compact JSON text per line.
  case ndjson
  /// A body: its bytes as received. A selected value or stream item: a string without
  /// quotes (like `jq -r`), other values as JSON in the formatter's style.
  case raw
  /// An aligned plain-text table.
  case table
}

/// Turns one value into the bytes `-o FORMAT` prints for it, newline included: the one place
/// that knows what each format looks like, for `call`, `list`, `run` and every other command.
public struct ValueFormatter: Sendable {
  /// The format.
  public var format: OutputFormat
  /// For `.json`: pretty or compact.
  public var style: JSONOutputStyle
  /// Colour for `.json` and `.ndjson`; `nil` for none.
  public var colors: JSONColors?
  /// For `.table`.
  public var table: TableFormatter
  /// `-r/--raw-output`: a string value prints as its text, without quotes or escapes, as
  /// `jq -r` prints it (`.raw` always does).
  public var rawStrings: Bool

  /// Makes a formatter.
  public init(
    format: OutputFormat, style: JSONOutputStyle = .pretty, colors: JSONColors? = nil,
    table: TableFormatter = TableFormatter(), rawStrings: Bool = false
  ) {
    self.format = format
    self.style = style
    self.colors = colors
    self.table = table
    self.rawStrings = rawStrings
  }

  /// Appends the output for `value` to `out`.
  public func write(_ value: JSONValue, into out: inout [UInt8]) {
    if rawStrings, format != .table, case .string(let s) = value {
      out.append(contentsOf: s.utf8)
      out.append(0x0A)
      return
    }
    switch format {
    case .json:
      JSONPrinter(style: style, colors: colors).write(value, into: &out)
      out.append(0x0A)
    case .ndjson:
      NDJSON.append(value, to: &out, colors: colors)
    case .raw:
      if case .string(let s) = value {
        out.append(contentsOf: s.utf8)
      } else {
        JSONPrinter(style: style).write(value, into: &out)
      }
      out.append(0x0A)
    case .table:
      out.append(contentsOf: table.format(value).utf8)
    }
  }

  /// The output for `value` as bytes.
  public func bytes(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    write(value, into: &out)
    return out
  }
}
