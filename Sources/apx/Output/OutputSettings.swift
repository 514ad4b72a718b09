import APXCore
import APXRuntime

/// Builds the printer's settings from the global flags and the terminal.
enum OutputSettings {
  /// `toFile`: for `-O`, where a body is written as received unless `-o` or `--select` asks
  /// otherwise, never coloured, and its download progress is drawn on a terminal.
  static func make(_ global: GlobalOptions, context: Context, toFile: Bool = false) throws -> CallPrinter.Settings {
    let terminal = context.stdoutIsTerminal && !toFile
    let color = context.useColor(global.color, terminal: terminal) && global.output != .raw && !toFile
    return CallPrinter.Settings(
      format: global.output ?? (toFile && global.select == nil ? .raw : nil),
      select: try global.select.map { text throws(APXError) in try JSONPath(parsing: text) },
      pretty: terminal || global.output == .json,
      colors: color ? .default : nil,
      verbose: global.verbose,
      stderrColors: context.useColor(global.color, terminal: context.stderrIsTerminal),
      rawStrings: global.rawOutput,
      tableWidth: toFile ? nil : context.stdoutColumns,
      transferProgress: context.stderrIsTerminal && (toFile || !context.stdoutIsTerminal))
  }
}
