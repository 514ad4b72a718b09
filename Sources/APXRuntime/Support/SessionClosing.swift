import Synchronization

/// How a session (`HTTPSession.with`, `GRPCSession.with`) ends when its scope returns.
public enum SessionClosing: Sendable {
  /// Connections are closed and the event loop's thread is stopped before `with` returns:
  /// what a caller that goes on running needs.
  case graceful
  /// Nothing is closed: the process exits right after the scope, and its exit closes the
  /// sockets and ends the threads. The command line's calls and recipes use it, because the
  /// graceful shutdown (closing each connection, joining the loop's thread, then resuming on a
  /// new worker thread) was about 0.5 ms of a 13 ms small GET, and a gRPC client's GOAWAY
  /// exchange more. The session's objects are kept until the exit (`ProcessLifetime`), so
  /// none is deinitialised while open, and its connections run on `CommandEventLoop`.
  case atProcessExit
}

/// Objects kept alive until the process exits (see `SessionClosing.atProcessExit`).
enum ProcessLifetime {
  private static let kept = Mutex<[any Sendable]>([])

  /// Keeps `object` referenced for the rest of the process.
  static func keep(_ object: any Sendable) {
    kept.withLock { $0.append(object) }
  }
}

/// What the process removes before it exits (it ends with `_exit`, which runs no `atexit` handler).
public enum ProcessExit {
  /// Removes the sockets of the proxy relays still open (`RelaySocket`).
  public static func removeTemporaryFiles() {
    RelayFolders.removeAll()
  }
}
