import ArgumentParser

/// A command that runs against the `Context` it is handed. `Main` makes the process's one
/// context and passes it down, so no command reaches for a global, and the same command
/// runs against another context (other streams, another environment) unchanged.
protocol ContextCommand: AsyncParsableCommand, Sendable {
  func run(in context: Context) async throws
  /// Whether `Main` runs the command on `CommandEventLoop` (commands whose sessions end with
  /// the process: `apx call`, `apx run`).
  static var runsOnCommandEventLoop: Bool { get }
}

extension ContextCommand {
  static var runsOnCommandEventLoop: Bool { false }

  /// ArgumentParser's entry point, which `Main` does not use (it parses the line itself and
  /// calls `run(in:)`); kept working for a caller that runs a command the usual way.
  mutating func run() async throws { try await run(in: Context()) }
}
