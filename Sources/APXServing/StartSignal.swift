import Synchronization

/// Errors of a served application's own life cycle.
public enum ServerHostError: Error, Sendable {
  /// The server task ended before it reported a listening socket.
  case stoppedBeforeListening
}

/// One-shot hand-over of the bound port (or the startup error) from the server task.
final class StartSignal: Sendable {
  private enum State {
    case waiting(CheckedContinuation<Int, any Error>?)
    case done(Result<Int, any Error>)
  }

  private let state = Mutex(State.waiting(nil))

  func succeed(port: Int) { resolve(.success(port)) }
  func fail(_ error: any Error) { resolve(.failure(error)) }

  /// The port, once the server listens; the error if it failed first.
  func wait() async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<Int, any Error>? = state.withLock { state in
        switch state {
        case .waiting:
          state = .waiting(continuation)
          return nil
        case .done(let result):
          return result
        }
      }
      if let ready { continuation.resume(with: ready) }
    }
  }

  private func resolve(_ result: Result<Int, any Error>) {
    let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
      guard case .waiting(let continuation) = state else { return nil }  // first result wins
      state = .done(result)
      return continuation
    }
    continuation?.resume(with: result)
  }
}
