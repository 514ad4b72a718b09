import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import APXRuntime

/// A direct connection kept between exchanges (a recipe's steps) is not reused once the server
/// has sent GOAWAY or closed it while it sat idle: the next exchange opens a new one.
@Suite("direct gRPC client: connections the server ends while idle", .timeLimit(.minutes(1)))
struct DirectIdleConnectionTests {
  /// An HTTP/2 server on loopback that answers each connection's preface with empty SETTINGS
  /// and otherwise only does what the test tells it.
  final class IdleServer: Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channels = Mutex<[any Channel]>([])
    private let listener = Mutex<(any Channel)?>(nil)

    final class Greeter: ChannelInboundHandler, Sendable {
      typealias InboundIn = ByteBuffer
      let greeted = Atomic<Bool>(false)
      func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !greeted.exchange(true, ordering: .relaxed) else { return }
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: [0, 0, 0, 4, 0, 0, 0, 0, 0])), promise: nil)
      }
    }

    func start() async throws -> Int {
      let channel = try await ServerBootstrap(group: group)
        .childChannelInitializer { [self] channel in
          channels.withLock { $0.append(channel) }
          return channel.pipeline.addHandler(Greeter())
        }
        .bind(host: "127.0.0.1", port: 0).get()
      listener.withLock { $0 = channel }
      return channel.localAddress?.port ?? 0
    }

    var connectionCount: Int { channels.withLock { $0.count } }

    /// The connections accepted, once `expected` have been or 2 s have passed (the server
    /// accepts after the client's connect has returned), and 100 ms more for any extra one.
    func connections(expecting expected: Int) async throws -> Int {
      for _ in 0..<200 where connectionCount < expected { try await Task.sleep(for: .milliseconds(10)) }
      try await Task.sleep(for: .milliseconds(100))
      return connectionCount
    }

    /// Writes `bytes` on the first connection, or closes it when nil.
    func endFirstConnection(with bytes: [UInt8]?) async throws {
      let first = try #require(channels.withLock { $0.first })
      if let bytes {
        try await first.writeAndFlush(ByteBuffer(bytes: bytes)).get()
      } else {
        try await first.close().get()
      }
    }

    func stop() async {
      try? await listener.withLock { $0 }?.close().get()
      for channel in channels.withLock({ $0 }) { try? await channel.close().get() }
      try? await group.shutdownGracefully()
    }
  }

  /// GOAWAY (type 7) with last stream 0 and NO_ERROR.
  static let goAway: [UInt8] = [0, 0, 8, 7, 0, 0, 0, 0, 0] + [0, 0, 0, 0] + [0, 0, 0, 0]

  @Test(arguments: [true, false])
  func aConnectionEndedWhileIdleIsReplaced(byGoAway: Bool) async throws {
    let server = IdleServer()
    let port = try await server.start()
    do {
      let target = GRPCTarget(host: "127.0.0.1", port: port, useTLS: false)
      let pool = DirectGRPCPool()
      let deadline = NIODeadline.now() + .seconds(20)
      // Counted by the server: a connection's identity would not do, as a new one may take
      // the memory of one that was closed.
      #expect(try await pool.exchange(target, deadline: deadline) { $0.isUsable })
      #expect(try await server.connections(expecting: 1) == 1 && pool.idleCount == 1)
      try await server.endFirstConnection(with: byGoAway ? Self.goAway : nil)
      try await Task.sleep(for: .milliseconds(100))
      #expect(try await pool.exchange(target, deadline: deadline) { $0.isUsable })
      #expect(try await server.connections(expecting: 2) == 2)
      // A connection the server left alone is still reused.
      #expect(try await pool.exchange(target, deadline: deadline) { $0.isUsable })
      #expect(try await server.connections(expecting: 2) == 2 && pool.idleCount == 1)
      pool.close()
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }
}
