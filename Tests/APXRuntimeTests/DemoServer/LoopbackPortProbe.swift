import NIOCore
import NIOPosix

/// Says whether something accepts TCP connections on a loopback port (no HTTP, no retries).
enum LoopbackPortProbe {
  /// True when a TCP connection to 127.0.0.1:`port` succeeds.
  static func accepts(port: Int) async -> Bool {
    // A closed port is refused at once, so the long limit only matters when the answer is
    // yes: a loaded machine must not turn a slow connect into "nothing listens".
    do {
      let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connectTimeout(.seconds(10))
        .connect(host: "127.0.0.1", port: port)
        .get()
      try? await channel.close()
      return true
    } catch {
      return false
    }
  }
}
