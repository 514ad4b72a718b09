import APXCore

/// Prints one JSON value per the output flags, for the commands other than `call` (whose
/// bodies and streams go through `CallPrinter`). Both format each value with `ValueFormatter`.
enum ValuePrinter {
  /// Prints `value` (after `--select`): a table when `tableByDefault` and no format or
  /// selection was asked for; `-o ndjson` prints an array's elements one per line. A table
  /// shows the `keepWhole` columns whole whatever the terminal's width, and the `uncapped` ones
  /// whole where the terminal has room.
  static func print(
    _ value: JSONValue, global: GlobalOptions, context: Context, tableByDefault: Bool = false,
    keepWhole: Set<String> = [], uncapped: Set<String> = []
  ) throws {
    try print(
      value, output: global.outputOptions, context: context, tableByDefault: tableByDefault, keepWhole: keepWhole,
      uncapped: uncapped)
  }

  /// The same, for a command that takes only some of the option groups (`apx validate`).
  static func print(
    _ value: JSONValue, output: OutputOptions, context: Context, tableByDefault: Bool = false,
    keepWhole: Set<String> = [], uncapped: Set<String> = []
  ) throws {
    let flags = try output.applyingConfig(context)
    var results = [value]
    if let s = flags.select { results = try JSONPath(parsing: s).select(in: value) }
    let format =
      flags.output ?? (tableByDefault && flags.select == nil && !flags.rawOutput ? .table : .json)
    let color = context.useColor(flags.color, terminal: context.stdoutIsTerminal) && format != .raw
    let formatter = ValueFormatter(
      format: format, style: context.stdoutIsTerminal || flags.output == .json ? .pretty : .compact,
      colors: color ? .default : nil,
      table: TableFormatter(maxLineWidth: context.stdoutColumns, keepWhole: keepWhole, uncapped: uncapped),
      rawStrings: flags.rawOutput)
    for result in results {
      switch format {
      case .table:
        let fitted = formatter.table.fitted(result)
        context.stdout.write(fitted.text)
        if !fitted.hiddenColumns.isEmpty, let width = context.stdoutColumns {
          context.stdout.flush()
          context.warn(CallPrinter.hiddenColumnsNote(fitted.hiddenColumns, width: width))
        }
      case .ndjson:
        for item in result.arrayValue ?? [result] { context.stdout.write(formatter.bytes(item)) }
      case .json, .raw:
        context.stdout.write(formatter.bytes(result))
      }
    }
    context.stdout.flush()
  }
}
