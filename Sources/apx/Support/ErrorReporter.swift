import APXCore
import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Prints an error to stderr in apx's format and returns its exit code.
/// Help and version requests go to stdout with exit 0, as users expect.
struct ErrorReporter {
  let context: Context

  func report(_ error: any Error) -> Int32 {
    context.stdout.flush()
    if context.stdout.closed {
      // The reader of our stdout went away (`| head`): a quiet, normal end, whatever
      // the transport made of the interrupted write (e.g. a "network" error of a body
      // cut short). Any other write failure (a full disk) is worth a line on stderr.
      if context.stdout.failure != EPIPE {
        context.stderr.write("apx: writing to stdout failed: \(String(cString: strerror(context.stdout.failure)))\n")
        return ExitStatus.internalFailure.code
      }
      return 0
    }
    switch error {
    case is StdoutClosed:
      return 0
    case let e as APXError:
      context.stderr.write("apx: " + e.description + "\n")
      return e.status.code
    case let e as APXErrors:
      for item in e.errors { context.stderr.write("apx: " + item.description + "\n") }
      if e.errors.count > 1 { context.stderr.write("apx: \(e.errors.count) problems found\n") }
      return e.status.code
    default:
      let code = APX.exitCode(for: error)
      if code == .success {
        // Help (and --version): rendered unwrapped, then fitted to the terminal by apx, which
        // leaves preformatted lines (examples, tables) as written (see HelpLayout).
        let help = APX.fullMessage(for: error, columns: HelpLayout.unwrapped)
        let width = TerminalSize.columns(fd: 1, environment: context.environment)
        context.stdout.write(HelpLayout.fit(help, width: width) + "\n")
        return 0
      }
      let message = APX.fullMessage(for: error)
      if code == .validationFailure {
        // ArgumentParser uses 64 for usage errors; apx documents 2.
        context.stderr.write(message.escapingTerminalControls() + "\n")
        return ExitStatus.usage.code
      }
      if let exit = error as? ExitCode { return exit.rawValue }
      context.stderr.write(
        "apx: error: \(message.escapingTerminalControls())\n  hint: this is a bug in apx; please report it with the command you ran\n"
      )
      return ExitStatus.internalFailure.code
    }
  }
}
