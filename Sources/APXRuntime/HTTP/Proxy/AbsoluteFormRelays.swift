import NIOCore
import Synchronization

/// A session's `AbsoluteFormRelay`s, one per proxy and origin, each started by the first
/// plain `http://` request that needs it.
final class AbsoluteFormRelays: Sendable {
  private struct Key: Hashable {
    let proxy: ProxyServer
    let origin: PlainHTTPOrigin
  }

  private let started = Mutex<[Key: Task<RelaySocket, any Error>]>([:])
  private let connectTimeout: TimeAmount

  /// - Parameter connectTimeout: how long each relay's connection to its proxy may take.
  init(connectTimeout: TimeAmount) {
    self.connectTimeout = connectTimeout
  }

  /// The relay for `origin` through `proxy`, started now on `eventLoop` if this is its first request.
  func relay(for origin: PlainHTTPOrigin, through proxy: ProxyServer, on eventLoop: any EventLoop) async throws
    -> RelaySocket
  {
    let key = Key(proxy: proxy, origin: origin)
    let connectTimeout = connectTimeout
    let task = started.withLock { started in
      if let task = started[key] { return task }
      let task = Task {
        try await AbsoluteFormRelay.start(
          proxy: proxy, origin: origin, connectTimeout: connectTimeout, on: eventLoop)
      }
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
