import APXCore
import APXRuntime
import ArgumentParser
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The root command. The pipeline every call follows:
/// **load** (registry + recipe files -> typed values) -> **resolve**
/// (templates, environment, auth) -> **execute** (Executor: auth, then retry,
/// then the transport) -> **format** (CallEvents -> bytes on stdout).
struct APX: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "apx",
    // The protocol list and the exit codes come from the code, so they cannot fall behind it.
    abstract: "A scriptable API explorer: \(EndpointKind.allNamed) calls from a JSON registry, JSON out.",
    discussion: """
      Endpoints live in registry files (./Endpoints/<api>.json). Try the embedded demo backend:
        apx call --demo books.capabilities.get
        apx list
      Exit codes:
      \(ExitStatus.helpTable)
      """,
    version: APXVersionText.text,
    subcommands: [
      CallCommand.self, ListCommand.self, DescribeCommand.self, ValidateCommand.self, ImportCommand.self,
      DemoCommand.self, MockCommand.self, CompletionsCommand.self, ManualCommand.self, ConfigCommand.self,
      AuthCommand.self,
      RunCommand.self, SessionCommand.self,
    ]
  )
}

enum APXVersionText {
  static let text = "apx 0.1.0"
}

/// Entry point: parses, runs, and maps every failure to a message on stderr
/// and a documented exit code (never a trap).
@main
enum Main {
  /// Synchronous, so the process's first thread is free to become the command's event loop
  /// (`CommandEventLoop.runOnCurrentThread`); an async `main` parks it instead.
  static func main() {
    signal(SIGPIPE, SIG_IGN)
    let context = Context()
    let arguments = Array(CommandLine.arguments.dropFirst())
    // `apx --version` skips ArgumentParser (the same text): building its model of the
    // commands is most of what answering it would cost.
    if arguments == ["--version"] {
      context.stdout.write(APXVersionText.text + "\n")
      finish(0, context)
    }
    let command: any ParsableCommand
    do {
      command = try APX.parseAsRoot()
    } catch {
      finish(ErrorReporter(context: context).report(error), context)
    }
    if let contextCommand = command as? any ContextCommand {
      if type(of: contextCommand).runsOnCommandEventLoop {
        onCommandEventLoop(context) { try await contextCommand.run(in: $0) }
      }
      onSwiftsPool(context) { try await contextCommand.run(in: $0) }
    }
    // Every command is a ContextCommand; a group without one (`apx auth`) prints its help.
    do {
      var plain = command
      try plain.run()
      finish(0, context)
    } catch {
      finish(ErrorReporter(context: context).report(error), context)
    }
  }

  /// Runs a command as a task on `CommandEventLoop`, which the main thread becomes, and exits
  /// from it. Why the main thread: starting a loop thread and handing the command to it was
  /// 0.4 ms of a 10 ms gRPC call with reflection, while the main thread only waited.
  private static func onCommandEventLoop(
    _ context: Context, _ command: @escaping @Sendable (Context) async throws -> Void
  ) -> Never {
    CommandEventLoop.runOnCurrentThread { await runThenExit(context, command) }
    context.warn("apx: internal error: the command's event loop stopped before the command ended")
    finish(1, context)
  }

  /// Runs a command as a task on Swift's global pool (commands that serve, like `apx demo`, or
  /// whose sessions close before they return), the main thread handed to the main queue.
  private static func onSwiftsPool(
    _ context: Context, _ command: @escaping @Sendable (Context) async throws -> Void
  ) -> Never {
    Task { await runThenExit(context, command) }
    dispatchMain()
  }

  private static func runThenExit(
    _ context: Context, _ command: @Sendable (Context) async throws -> Void
  ) async -> Never {
    do {
      try await command(context)
      finish(0, context)
    } catch {
      finish(ErrorReporter(context: context).report(error), context)
    }
  }

  /// Flushes the streams and exits with `status`. `_exit`, not `exit`: the C++ and Swift
  /// runtimes' static destructors and atexit handlers have nothing to save (every stream is
  /// flushed here, C's too), and skipping them took 0.15 ms off each command's exit.
  private nonisolated static func finish(_ status: Int32, _ context: Context) -> Never {
    context.stdout.flush()
    context.stderr.flush()
    fflush(nil)
    ProcessExit.removeTemporaryFiles()
    _exit(status)
  }
}
