import NIOCore
import NIOEmbedded
import Testing

@testable import APXRuntime

/// The pieces of the proxy relays, on NIO's embedded channels: how the proxy's answer to CONNECT
/// is split from the tunnel's first bytes, and how a relay holds back a fast sender and passes
/// an end on only after what was written has gone out.
@Suite("Proxy relay channels")
struct ProxyRelayChannelTests {
  static func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

  static func text(_ buffer: ByteBuffer?) -> String? { buffer.map { String(buffer: $0) } }

  @Test func theProxysAnswerPassesAndTheTunnelsBytesWaitForTheDecoderToLeave() throws {
    let splitter = TunnelHeadSplitter()
    let channel = EmbeddedChannel(handler: splitter)
    // A server that speaks first (an h2c gRPC server's SETTINGS) arrives in the same read.
    try channel.writeInbound(Self.bytes("HTTP/1.1 200 Connection established\r\n\r\nSETTINGS"))
    #expect(Self.text(try channel.readInbound()) == "HTTP/1.1 200 Connection established\r\n\r\n")
    try channel.writeInbound(Self.bytes("+MORE"))
    #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
    try channel.pipeline.syncOperations.removeHandler(splitter).wait()
    #expect(Self.text(try channel.readInbound()) == "SETTINGS+MORE")
    _ = try channel.finish()
  }

  @Test func anAnswerSplitAcrossReadsIsFoundWhereItsBlankLineEnds() throws {
    let splitter = TunnelHeadSplitter()
    let channel = EmbeddedChannel(handler: splitter)
    try channel.writeInbound(Self.bytes("HTTP/1.1 200 OK\r\n\r"))
    #expect(Self.text(try channel.readInbound()) == "HTTP/1.1 200 OK\r\n\r")
    try channel.writeInbound(Self.bytes("\nAB"))
    #expect(Self.text(try channel.readInbound()) == "\n")
    #expect(try channel.readInbound(as: ByteBuffer.self) == nil)
    try channel.pipeline.syncOperations.removeHandler(splitter).wait()
    #expect(Self.text(try channel.readInbound()) == "AB")
    _ = try channel.finish()
  }

  /// The CONNECT request a tunnel opens with: an IPv6 target in brackets (authority form), a
  /// name or IPv4 address as it is.
  @Test(arguments: [("::1", "[::1]:443"), ("127.0.0.1", "127.0.0.1:443"), ("api.example", "api.example:443")])
  func theConnectRequestNamesTheTargetInAuthorityForm(host: String, authority: String) throws {
    let channel = EmbeddedChannel()
    let established = channel.eventLoop.makePromise(of: Void.self)
    try ProxyConnectPipeline.add(
      to: channel, host: host, port: 443, headers: [:], deadline: .now() + .seconds(60), promise: established)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 3128)).wait()
    var sent = ""
    while let part = try channel.readOutbound(as: ByteBuffer.self) { sent += String(buffer: part) }
    #expect(sent.hasPrefix("CONNECT \(authority) HTTP/1.1\r\n"), "\(sent)")
    established.fail(ChannelError.ioOnClosedChannel)
    _ = try? channel.finish()
  }

  /// Counts the reads a relay lets through to its channel.
  final class ReadCounter: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = NIOAny
    var reads = 0

    func read(context: ChannelHandlerContext) {
      reads += 1
      context.read()
    }
  }

  /// Two channels on one loop, each relaying to the other, as a client's and the proxy's are.
  static func pair() throws -> (client: EmbeddedChannel, upstream: EmbeddedChannel, counter: ReadCounter) {
    let loop = EmbeddedEventLoop()
    let counter = ReadCounter()
    let client = EmbeddedChannel(loop: loop)
    let upstream = EmbeddedChannel(loop: loop)
    try client.pipeline.syncOperations.addHandler(counter)
    try client.pipeline.syncOperations.addHandler(ChannelRelay(partner: upstream))
    try upstream.pipeline.syncOperations.addHandler(ChannelRelay(partner: client))
    try client.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    try upstream.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
    return (client, upstream, counter)
  }

  @Test func bytesReadOnOneSideAreWrittenToTheOther() throws {
    let (client, upstream, _) = try Self.pair()
    try client.writeInbound(Self.bytes("request"))
    #expect(Self.text(try upstream.readOutbound()) == "request")
    try upstream.writeInbound(Self.bytes("answer"))
    #expect(Self.text(try client.readOutbound()) == "answer")
  }

  @Test func aSideThatCannotTakeMoreHoldsTheOtherSidesReadsUntilItCan() throws {
    let (client, upstream, counter) = try Self.pair()
    upstream.isWritable = false
    client.read()
    #expect(counter.reads == 0)
    upstream.isWritable = true
    upstream.pipeline.fireChannelWritabilityChanged()
    #expect(counter.reads == 1)
    client.read()
    #expect(counter.reads == 2)
  }

  @Test func anEndIsPassedOnAfterWhatWasWrittenHasGoneOut() throws {
    let (client, upstream, _) = try Self.pair()
    try client.writeInbound(Self.bytes("last words"))
    try client.close().wait()
    (client.eventLoop as? EmbeddedEventLoop)?.run()
    #expect(Self.text(try upstream.readOutbound()) == "last words")
    #expect(!upstream.isActive)
  }
}
