import Foundation

/// Runs a shell command line with a pseudo-terminal as its stdout and stderr, through script(1),
/// for the tests of what apx does on a terminal. The two flavours differ: util-linux (Linux)
/// takes the command with `-c` and needs `-e` to exit with its status; BSD script (macOS) has no
/// `-c`, takes the command after the typescript file, and exits with the command's status.
enum PseudoTerminal {
  static let script = URL(fileURLWithPath: "/usr/bin/script")

  /// Why terminal tests are skipped on this machine, or nil when script(1) is there.
  static var unavailable: String? {
    FileManager.default.isExecutableFile(atPath: script.path)
      ? nil : "skipped: script(1) is not installed at /usr/bin/script (util-linux on Linux)"
  }

  /// Runs `line` with `/bin/sh` on a pseudo-terminal; the typescript goes to /dev/null, and what
  /// the terminal showed is the result's stdout ("\n" as the terminal sends it, "\r\n").
  static func run(_ line: String, environment: [String: String] = [:]) async throws -> APXResult {
    let version = try await APXProcess.run(["-V"], executable: script)
    let arguments =
      (version.stdout + version.stderr).contains("util-linux")
      ? ["-q", "-e", "-c", line, "/dev/null"]
      : ["-q", "/dev/null", "/bin/sh", "-c", line]
    return try await APXProcess.run(arguments, environment: environment, executable: script)
  }

  /// `arguments` quoted for `/bin/sh`, each in single quotes.
  static func shellQuoted(_ arguments: [String]) -> String {
    arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
  }
}
