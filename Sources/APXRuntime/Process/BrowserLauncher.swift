import Subprocess

#if canImport(System)
  import System
#else
  import SystemPackage
#endif

/// Opens a URL in the user's browser: `$BROWSER` (a `:`-separated list of commands, `%s`
/// standing for the URL, else the URL appended), else `open` on macOS or `xdg-open` elsewhere.
/// The browser is started and left running: apx never waits for it nor stops it.
public enum BrowserLauncher {
  /// The program that opens a URL when `$BROWSER` names none.
  public static var defaultOpener: String {
    #if canImport(Darwin)
      "open"
    #else
      "xdg-open"
    #endif
  }

  /// The program and arguments that would open `url`, or nil when none is found on PATH.
  public static func command(for url: String, environment: [String: String]) -> [String]? {
    let path = environment["PATH"]
    let candidates = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init) + [defaultOpener]
    for candidate in candidates {
      var words = candidate.split(separator: " ").map(String.init)
      guard !words.isEmpty, let program = TokenCommandRunner.locate(words[0], path: path) else { continue }
      words[0] = program
      if words.contains(where: { $0.contains("%s") }) {
        words = words.map { $0.replacing("%s", with: url) }
      } else {
        words.append(url)
      }
      return words
    }
    return nil
  }

  /// Starts `command` (from `command(for:environment:)`) in the background; `failed` is told
  /// when it cannot start or exits with a failure, so the caller can say to open the URL by hand.
  public static func start(
    _ command: [String], environment: [String: String], failed: @escaping @Sendable (String) -> Void
  ) {
    var env: [Environment.Key: String] = [:]
    for (key, value) in environment { env[Environment.Key(stringLiteral: key)] = value }
    let configuration = Configuration(
      executable: .path(FilePath(command[0])), arguments: Arguments(Array(command.dropFirst())),
      environment: .custom(env))
    Task.detached {
      do {
        let result = try await Subprocess.run(configuration, input: .none, output: .discarded, error: .discarded)
        if case .exited(let code) = result.terminationStatus, code != 0 {
          failed("\(PathText.lastComponent(command[0])) exited with status \(code)")
        }
      } catch {
        failed("\(PathText.lastComponent(command[0])) could not start: \(error)")
      }
    }
  }
}
