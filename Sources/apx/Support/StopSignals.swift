import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a server so that Ctrl-C (SIGINT) and SIGTERM cancel it instead of killing the process
/// at once (`apx mock --record`: what is under way is written first), then ends the process
/// with that signal, as without this. A signal the process ignores (a shell's background job)
/// stays ignored.
enum StopSignals {
  /// Runs `body` in a task either signal cancels; once it has returned, re-raises the signal
  /// that cancelled it.
  static func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
    let task = Task { try await body() }
    let received = Atomic<Int32>(0)
    var sources: [any DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
      let previous = signal(sig, SIG_IGN)
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
      let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
      source.setEventHandler {
        received.store(sig, ordering: .relaxed)
        task.cancel()
      }
      source.resume()
      sources.append(source)
    }
    defer { for source in sources { source.cancel() } }
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
    let sig = received.load(ordering: .relaxed)
    guard sig != 0 else { return }
    for source in sources { source.cancel() }
    signal(sig, SIG_DFL)
    // The dispatch source's thread may have blocked the signal: unblocked here, it ends the process.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, sig)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(sig)
    exit(128 + sig)
  }
}
