import NIOCore
import Synchronization

/// A session's proxy relays, each started by the first request that needs it and kept for the
/// rest of the run: an `AbsoluteFormRelay` per proxy and plain http:// origin. (WebSocket
/// connections open their CONNECT tunnel on their own channel; gRPC keeps its relay in its session.)
final class ProxyRelays: Sendable {
  private struct Key: Hashable {
    let proxy: ProxyServer
    /// `host:port` (or the `Host` form of a plain http:// origin).
    let authority: String
  }

  private let started = Mutex<[Key: Task<RelaySocket, any Error>]>([:])
  private let connectTimeout: TimeAmount

  /// - Parameter connectTimeout: how long each relay's connection to its proxy may take.
  init(connectTimeout: TimeAmount) {
    self.connectTimeout = connectTimeout
  }

  /// The relay that sends plain http:// requests for `origin` to `proxy` in absolute form.
  func absoluteForm(for origin: PlainHTTPOrigin, through proxy: ProxyServer, on eventLoop: any EventLoop)
    async throws -> RelaySocket
  {
    let connectTimeout = connectTimeout
    return try await relay(Key(proxy: proxy, authority: origin.authority)) {
      try await AbsoluteFormRelay.start(proxy: proxy, origin: origin, connectTimeout: connectTimeout, on: eventLoop)
    }
  }

  /// The relay for `key`, started with `start` if this is its first request.
  private func relay(_ key: Key, start: @escaping @Sendable () async throws -> RelaySocket) async throws
    -> RelaySocket
  {
    let task = started.withLock { started in
      if let task = started[key] { return task }
      let task = Task { try await start() }
      started[key] = task
      return task
    }
    do {
      return try await task.value
    } catch {
      // The next request tries again.
      started.withLock { started in
        if started[key] == task { started[key] = nil }
      }
      throw error
    }
  }

  /// Closes every relay started.
  func close() async {
    let tasks = started.withLock { started in
      defer { started.removeAll() }
      return Array(started.values)
    }
    for task in tasks { await (try? task.value)?.close() }
  }
}
