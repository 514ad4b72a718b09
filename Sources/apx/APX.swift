import APXCore
import APXRuntime
import ArgumentParser

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
    abstract: "A scriptable API explorer: REST, SSE and gRPC calls from a JSON registry, JSON out.",
    discussion: """
      Endpoints live in registry files (./Endpoints/<api>.json). Try the embedded demo backend:
        apx call --demo books.capabilities.get
        apx list
      Exit codes:
        0     success
        1     internal error, or stdout could not be written
        2     usage: unknown flag, bad parameter or header, unknown API or endpoint
        3     invalid registry, recipe or config file
        4     the server answered HTTP 4xx
        5     the server answered HTTP 5xx
        6     network: connection refused, DNS, TLS, connection dropped
        7     timeout
        8     auth: credentials missing or rejected
        9     expectation failed (status, recipe check, --test, unusable response)
        10    the remote operation failed
        11    JSON-RPC error object
        64+N  gRPC status N (78 UNAVAILABLE, 80 UNAUTHENTICATED)
        130   interrupted
      """,
    version: APXVersionText.text,
    subcommands: [
      CallCommand.self, ListCommand.self, DescribeCommand.self, ValidateCommand.self, ImportCommand.self,
      DemoCommand.self, CompletionsCommand.self, ManualCommand.self, ConfigCommand.self, AuthCommand.self,
      RunCommand.self,
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
  static func main() async {
    signal(SIGPIPE, SIG_IGN)
    let context = Context()
    let arguments = Array(CommandLine.arguments.dropFirst())
    // `apx --version` skips ArgumentParser too (the same text): building its model of the
    // commands made 21 scans of the conformance records, most of the 3.5 ms it took.
    if arguments == ["--version"] {
      context.stdout.write(APXVersionText.text + "\n")
      finish(0, context)
    }
    // `apx call` skips ArgumentParser when its line is plain (see FastCallArguments).
    if let invocation = FastCallArguments.parse(arguments) {
      await CommandEventLoop.run { await onCommandEventLoop(context) { try await invocation.run(in: $0) } }
    }
    let status: Int32
    do {
      var command = try APX.parseAsRoot()
      if let contextCommand = command as? any ContextCommand {
        if type(of: contextCommand).runsOnCommandEventLoop {
          await CommandEventLoop.run { await onCommandEventLoop(context) { try await contextCommand.run(in: $0) } }
        }
        try await contextCommand.run(in: context)
      } else if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
      status = 0
    } catch {
      status = ErrorReporter(context: context).report(error)
    }
    finish(status, context)
  }

  /// Runs a command on `CommandEventLoop` (called within `CommandEventLoop.run`) and exits from
  /// the loop's thread. Why not return to `main`: on Linux, Dispatch serves the main queue of an
  /// async `main` from a thread it starts for the purpose, so returning there would start a
  /// thread only to exit (0.97x the wall time of a gRPC call without that thread).
  private nonisolated static func onCommandEventLoop(
    _ context: Context, _ command: @Sendable (Context) async throws -> Void
  ) async -> Never {
    do {
      try await command(context)
      finish(0, context)
    } catch {
      finish(ErrorReporter(context: context).report(error), context)
    }
  }

  /// Flushes the streams and exits with `status`.
  private nonisolated static func finish(_ status: Int32, _ context: Context) -> Never {
    context.stdout.flush()
    context.stderr.flush()
    exit(status)
  }
}
