import NIOCore

/// Passes every byte its channel reads on to `partner`, and closes `partner` when its channel
/// closes. It reads no more while `partner` cannot take more (its outbound buffer is over the
/// high-water mark), and asks `partner` to read again once its own channel can take more: a
/// fast sender then waits for a slow receiver instead of filling memory. Both channels must
/// run on one event loop.
final class ChannelRelay: ChannelDuplexHandler, Sendable {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer

  let partner: any Channel

  init(partner: any Channel) { self.partner = partner }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    partner.write(unwrapInboundIn(data), promise: nil)
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    partner.flush()
    context.fireChannelReadComplete()
  }

  func read(context: ChannelHandlerContext) {
    // Held back; `partner`'s relay asks again when it can take more.
    if partner.isWritable { context.read() }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable { partner.read() }
    context.fireChannelWritabilityChanged()
  }

  func channelInactive(context: ChannelHandlerContext) {
    partner.closeAfterPendingWrites()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}

extension Channel {
  /// Closes the channel once what was written to it has gone out: a plain `close` fails the
  /// writes still pending, and would cut the end off an answer whose sender closed right after it.
  func closeAfterPendingWrites() {
    // Writes complete in order, so an empty one completes after all that came before it.
    writeAndFlush(ByteBuffer()).whenComplete { _ in self.close(promise: nil) }
  }
}
