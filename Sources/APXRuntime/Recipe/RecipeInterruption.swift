import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a recipe so that Ctrl-C (SIGINT) cancels it instead of killing the
/// process: the runner then journals the interruption, and the run ends with
/// `interrupted` set so the command can exit 130 and say how to resume.
public enum RecipeInterruption {
  /// Runs `body` in a task that SIGINT cancels; SIGINT's default action is restored afterwards.
  public static func run(_ body: @escaping @Sendable () async -> RecipeRunResult) async -> RecipeRunResult {
    let task = Task { await body() }
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { task.cancel() }
    source.resume()
    let result = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    source.cancel()
    signal(SIGINT, SIG_DFL)
    return result
  }
}
