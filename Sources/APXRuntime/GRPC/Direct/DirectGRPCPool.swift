import APXCore
import GRPCCore
import NIOCore
import Synchronization

/// The direct client's plaintext connections, by target: each is lent to one exchange at a
/// time, on the thread `exchangeThread` says, and kept for the run's next call while it stays
/// usable.
final class DirectGRPCPool: Sendable {
  private let idle = Mutex<[String: [H2Connection]]>([:])
  /// The addresses `GRPCHostCheck` resolved for a target's host, by target.
  private let resolved = Mutex<[String: [ResolvedAddress]]>([:])
  /// Where the blocking exchanges run.
  let exchangeThread: DirectExchangeThread
  /// How long a connection may take when the call has no deadline (grpc-swift's default).
  static let connectTimeout: Int64 = 20

  /// A call's unary answer, collected whole.
  struct UnaryAnswer: Sendable {
    var initialMetadata: Metadata?
    var messages: [[UInt8]]
    var trailingMetadata: Metadata
    var error: RPCError?
  }

  init(exchangeThread: DirectExchangeThread = .own) {
    self.exchangeThread = exchangeThread
  }

  /// Connections to `target` go to `addresses` (what its host name resolved to) from now on,
  /// without a lookup of their own.
  func remember(_ addresses: [ResolvedAddress], for target: GRPCTarget) {
    guard !addresses.isEmpty else { return }
    resolved.withLock { $0["\(target.host):\(target.port)"] = addresses }
  }

  /// Runs `body` with a connection to `target`, blocking the thread `exchangeThread` says.
  func exchange<T: Sendable>(
    _ target: GRPCTarget, deadline: NIODeadline, _ body: @escaping @Sendable (H2Connection) throws -> T
  ) async throws -> T {
    let key = "\(target.host):\(target.port)"
    let work: @Sendable () throws -> T = { [self] in
      let connection = try take(key) ?? open(target, key: key, deadline: deadline)
      defer {
        if connection.isUsable {
          idle.withLock { $0[key, default: []].append(connection) }
        } else {
          connection.close()
        }
      }
      return try body(connection)
    }
    switch exchangeThread {
    case .own: return try await BlockingThread.run(work)
    case .callers: return try work()
    }
  }

  /// One call that sends a single message (unary or server streaming), its answer collected.
  func unary(
    _ target: GRPCTarget, authority: String, path: String, message: [UInt8], metadata: Metadata,
    timeout: Duration?, deadline: NIODeadline, maxMessageSize: Int
  ) async throws -> UnaryAnswer {
    try await exchange(target, deadline: deadline) { connection in
      var stream = try DirectGRPCStream(
        on: connection, authority: authority, path: path, metadata: metadata, timeout: timeout, deadline: deadline,
        maxMessageSize: maxMessageSize)
      var answer = UnaryAnswer(messages: [], trailingMetadata: Metadata())
      do throws(RPCError) {
        try stream.send(message, end: true)
        while let reply = try stream.next() {
          // One answer is what a unary call gets; more would pile up unprinted in memory.
          guard answer.messages.isEmpty else {
            throw RPCError(
              code: .internalError, message: "the server sent more than one response message to a unary call")
          }
          answer.messages.append(reply)
        }
      } catch {
        answer.error = error
        stream.cancel()
      }
      answer.initialMetadata = stream.initialMetadata
      answer.trailingMetadata = stream.trailingMetadata
      return answer
    }
  }

  /// Connections kept for the next call; for tests.
  var idleCount: Int { idle.withLock { $0.values.reduce(0) { $0 + $1.count } } }

  /// Closes every idle connection.
  func close() {
    let connections = idle.withLock { idle in
      defer { idle.removeAll() }
      return idle.values.flatMap { $0 }
    }
    for connection in connections { connection.close() }
  }

  private func take(_ key: String) -> H2Connection? {
    while let connection = idle.withLock({ $0[key]?.popLast() }) {
      // Outside the lock: reading what came while it was idle may wait (100 ms at most) for the
      // rest of a frame.
      connection.readIdleFrames()
      if connection.isUsable { return connection }
      connection.close()
    }
    return nil
  }

  private func open(_ target: GRPCTarget, key: String, deadline: NIODeadline) throws(RPCError) -> H2Connection {
    let limit = NIODeadline.now() + .seconds(Self.connectTimeout)
    let addresses = resolved.withLock { $0[key] ?? [] }
    do {
      return try H2Connection.open(
        host: target.host, port: target.port, addresses: addresses, deadline: min(deadline, limit))
    } catch {
      if case .socket(let socket) = error, socket.kind == .timedOut, limit < deadline {
        throw RPCError(
          code: .unavailable, message: "could not connect to the server within \(Self.connectTimeout) s",
          cause: DirectConnectionError(failure: error, connected: false))
      }
      throw DirectGRPCStream.rpcError(error, connected: false)
    }
  }
}

/// Where the direct client's blocking exchanges run.
public enum DirectExchangeThread: Sendable {
  /// A thread of its own for each exchange (`BlockingThread`): the caller's thread, an event
  /// loop that recipe steps running side by side or the in-process demo may share, never blocks.
  case own
  /// The caller's thread, blocked for the exchange: for a command that makes one call at a
  /// time and serves nothing in-process (`apx call` without `--demo`), whose event loop has
  /// nothing else to do meanwhile. A gRPC call with reflection then starts two threads fewer
  /// and hands work between threads four times fewer: 0.6 ms of a 10 ms call (timestamps at
  /// each step, release build), each wake-up of an idle processor costing a virtual machine
  /// tens of microseconds.
  case callers
}
