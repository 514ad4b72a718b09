import Foundation
import Testing

/// A real terminal for tests that check what a user sees: a tmux server of its own (one
/// socket per test) running one shell in a detached session. Keys are typed with
/// `send-keys`, the screen is read with `capture-pane`, and everything written to the
/// terminal can be logged (`pipe-pane`) to see what was drawn and then erased.
struct TmuxTerminal {
  /// The tmux executable on PATH, nil when it is not installed.
  static let tmux = find("tmux")
  /// Why a tmux-driven test is skipped.
  static let missing = Comment(rawValue: "tmux is not installed (apt-get install tmux; .ci/run installs it)")

  let socket: String
  let executable: URL

  /// The first executable `name` on PATH.
  static func find(_ name: String) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Starts `command` (a shell) in `folder` with exactly `environment` (`NAME=value` items),
  /// on a `width` x `height` terminal. Call `stop()` when done.
  static func start(
    command: String, environment: [String], folder: URL, width: Int = 200, height: Int = 50, name: String = "apx"
  ) async throws -> TmuxTerminal {
    let terminal = TmuxTerminal(
      socket: "\(name)-\(UUID().uuidString)", executable: URL(fileURLWithPath: tmux ?? "tmux"))
    // The tmux server this starts keeps every descriptor it inherits: none may be one of the
    // pipes the test reads to their end, or that read would wait for the server.
    let closeAndRun =
      #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; exec "$0" "$@" </dev/null >/dev/null 2>&1"#
    let started = try await APXProcess.run(
      [
        "-c", closeAndRun, terminal.executable.path, "-L", terminal.socket, "-f", "/dev/null",
        "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-c", folder.path,
        "env -i \(environment.joined(separator: " ")) \(command)",
      ], timeout: 20, executable: URL(fileURLWithPath: "/bin/bash"))
    #expect(started.status == 0, "\(started.stderr)")
    return terminal
  }

  /// Runs one tmux command against this terminal's server.
  @discardableResult
  func run(_ arguments: [String]) async throws -> APXResult {
    try await APXProcess.run(["-L", socket, "-f", "/dev/null"] + arguments, timeout: 20, executable: executable)
  }

  /// Types `text` as it is (no key names).
  func type(_ text: String) async throws { try await run(["send-keys", "-t", "0", "-l", text]) }

  /// Presses keys by tmux name: `Enter`, `Tab`, `C-c`, `C-u`.
  func press(_ keys: String...) async throws {
    for key in keys { try await run(["send-keys", "-t", "0", key]) }
  }

  /// What the screen shows now, one line per row; `joined` puts a line the terminal wrapped
  /// back together (so a line wider than the terminal shows as one long line).
  func screen(joined: Bool = false) async throws -> String {
    try await run(["capture-pane", "-p"] + (joined ? ["-J"] : []) + ["-t", "0"]).stdout
  }

  /// Reads the screen until `done` holds (at most about 10 s, or `attempts` x 50 ms), and
  /// returns the last screen read.
  func waitForScreen(attempts: Int = 200, _ done: (String) -> Bool) async throws -> String {
    var shown = ""
    for _ in 0..<attempts {
      shown = try await screen()
      if done(shown) { break }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    return shown
  }

  /// Reads the screen until the shell shows its prompt (`$`) on the last line again. Keys typed
  /// before then are echoed where the interrupted program left the cursor, ahead of the prompt.
  func waitForPrompt(attempts: Int = 400) async throws -> String {
    try await waitForScreen(attempts: attempts) { screen in
      let last = screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }
      return last.map { $0.allSatisfy { $0 == "$" || $0 == " " } } ?? false
    }
  }

  /// Appends every byte written to the terminal from now on to `file`.
  func log(to file: URL) async throws {
    try await run(["pipe-pane", "-t", "0", "-o", "cat >> '\(file.path)'"])
  }

  /// Ends the server and everything running in it.
  func stop() async { _ = try? await run(["kill-server"]) }
}
