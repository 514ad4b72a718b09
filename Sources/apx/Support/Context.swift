import APXCore
import APXRuntime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Everything a command needs from the outside world, gathered once:
/// streams, terminal facts, environment, registry folders. `Main` makes one at start-up and
/// hands it to the command (`ContextCommand.run(in:)`), so tests and recipes see the same paths.
final class Context: Sendable {
  let stdout: OutputStream
  let stderr: OutputStream
  let environment: [String: String]
  let stdoutIsTerminal: Bool
  let stderrIsTerminal: Bool
  /// How wide a line on stdout may be: the terminal's columns when stdout is one (`COLUMNS`
  /// wins, as shells set it), nil when it is a pipe or a file (tables print whole).
  let stdoutColumns: Int?
  /// Where the config file is looked for (nil without `XDG_CONFIG_HOME` and `HOME`).
  let configPath: String?
  /// The config file as read at start-up (empty when there is none), or why it is unusable:
  /// the error is raised by the first command that needs the configuration.
  let configResult: Result<ConfigFile, APXError>

  /// - Parameters:
  ///   - stdout: where results go: the process's stdout, or a capturing stream in tests.
  ///   - stderr: where notes, warnings and verbose lines go.
  init(
    environment: [String: String] = ProcessEnvironment.current(), stdout: OutputStream = OutputStream(fd: 1),
    stderr: OutputStream = OutputStream(fd: 2)
  ) {
    self.stdout = stdout
    self.stderr = stderr
    self.environment = environment
    stdoutIsTerminal = stdout.isTerminal
    stderrIsTerminal = stderr.isTerminal
    stdoutColumns = stdoutIsTerminal ? TerminalSize.columns(fd: stdout.fd, environment: environment) : nil
    let configPath = ConfigFile.path(environment: environment)
    self.configPath = configPath
    configResult = Result { () throws(APXError) in
      try configPath.map { path throws(APXError) in try ConfigFile.load(path: path) } ?? ConfigFile()
    }
  }

  /// Whether to colour output on stdout, from `--color` and `NO_COLOR` (https://no-color.org).
  func useColor(_ mode: ColorMode, terminal: Bool) -> Bool {
    switch mode {
    case .always: return true
    case .never: return false
    case .auto:
      if let v = environment["NO_COLOR"], !v.isEmpty { return false }
      if environment["TERM"] == "dumb" { return false }
      return terminal
    }
  }

  /// Registry folders: `--registry` flags, then `APX_REGISTRY` (colon-separated), then the defaults.
  func registryDirectories(_ flags: [String]) -> [String] {
    if !flags.isEmpty { return flags }
    if let v = environment["APX_REGISTRY"], !v.isEmpty { return v.split(separator: ":").map(String.init) }
    if case .success(let config) = configResult, let folders = config.registry { return folders }
    return RegistryFiles.defaultDirectories(environment: environment)
  }

  /// Writes a line to stderr now (warnings, notes), with terminal control characters shown as
  /// `\u{1B}`: a note may quote a server (a retry's reason phrase, an SSE event ID).
  func warn(_ text: String) {
    stderr.write(text.escapingTerminalControls() + "\n")
    stderr.flush()
  }
}

/// `--color` values.
enum ColorMode: String, CaseIterable, Sendable {
  case auto, always, never
}
