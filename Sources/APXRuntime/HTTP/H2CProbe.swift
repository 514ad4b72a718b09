import APXCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Asks a plaintext server whose answer was not HTTP/1.1 whether it speaks HTTP/2 without TLS
/// (h2c with prior knowledge, as gRPC servers do): AsyncHTTPClient speaks HTTP/2 over TLS only,
/// so to it such a server's bytes are "not valid HTTP". The probe sends the HTTP/2 connection
/// preface and an empty SETTINGS frame, and looks at the first frame that comes back.
enum H2CProbe {
  /// The client connection preface (RFC 9113 §3.4) and an empty SETTINGS frame.
  static let preface: [UInt8] =
    Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + [0, 0, 0, 0x04, 0, 0, 0, 0, 0]

  /// Whether `host:port` answers the preface with an HTTP/2 SETTINGS frame before `deadline`.
  static func speaksH2C(host: String, port: Int, on eventLoop: any EventLoop, deadline: NIODeadline) async -> Bool {
    let left = deadline - .now()
    guard left > .zero else { return false }
    let received = NIOLockedValueBox<[UInt8]>([])
    let bare = Origin.bare(host)
    let bootstrap = ClientBootstrap(group: eventLoop)
      .connectTimeout(left)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(FirstBytes(received: received))
        }
      }
    guard let channel = try? await bootstrap.connect(host: bare, port: port).get() else { return false }
    let cutOff = channel.eventLoop.scheduleTask(deadline: deadline) { channel.close(promise: nil) }
    channel.writeAndFlush(ByteBuffer(bytes: preface), promise: nil)
    try? await channel.closeFuture.get()
    cutOff.cancel()
    let bytes = received.withLockedValue { $0 }
    // A frame header: 24-bit length, type 4 (SETTINGS), flags without ACK, stream 0.
    return bytes.count >= 9 && bytes[3] == 0x04 && bytes[4] & 0x01 == 0 && bytes[5..<9].allSatisfy { $0 == 0 }
  }

  /// Keeps the first 9 bytes read, then closes the connection.
  private final class FirstBytes: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let received: NIOLockedValueBox<[UInt8]>

    init(received: NIOLockedValueBox<[UInt8]>) { self.received = received }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      var buffer = unwrapInboundIn(data)
      let enough = received.withLockedValue { bytes in
        bytes += buffer.readBytes(length: min(buffer.readableBytes, 9 - bytes.count)) ?? []
        return bytes.count >= 9
      }
      if enough { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
      context.close(promise: nil)
    }
  }
}
