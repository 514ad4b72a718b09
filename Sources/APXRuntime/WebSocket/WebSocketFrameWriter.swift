import APXCore
import Dispatch
import NIOCore
import NIOWebSocket

/// Writes the client's frames, each masked as RFC 6455 requires of a client.
struct WebSocketFrameWriter: Sendable {
  let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
  let sink: any CallEventSink
  /// A close frame was sent: RFC 6455 (5.5.1) allows one, and no data frame after it.
  private let closeSent = SharedFlag()

  init(outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, sink: any CallEventSink) {
    self.outbound = outbound
    self.sink = sink
  }

  func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
    try sink.receive(
      .webSocketFrame(sent: true, opcode: Self.kind(opcode), bytes: data.readableBytes, payload: BodyChunk(data)))
    try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
  }

  /// Sends a close frame with `code` (and `reason`), once: a later call does nothing.
  func close(code: Int, reason: String?) async throws {
    guard closeSent.set() else { return }
    var data = ByteBuffer()
    data.writeInteger(UInt16(clamping: code))
    if let reason { data.writeString(reason) }
    try await send(.connectionClose, data)
  }

  /// A frame arrived: reported for `-v`.
  func noteReceived(_ frame: WebSocketFrame) throws {
    try sink.receive(
      .webSocketFrame(
        sent: false, opcode: Self.kind(frame.opcode), bytes: frame.length, payload: BodyChunk(frame.unmaskedData)))
  }

  static func kind(_ opcode: WebSocketOpcode) -> WebSocketFrameKind {
    switch opcode {
    case .text: .text
    case .binary: .binary
    case .ping: .ping
    case .pong: .pong
    case .connectionClose: .close
    default: .continuation
    }
  }
}

/// Secrets a WebSocket handshake carries outside the places `SecretMask` already knows.
enum WebSocketSecrets {
  /// A subprotocol of the form `name.TOKEN` (e.g. `bookstrack-auth.<token>`) carries a token:
  /// the part after the first `.` is masked wherever the handshake is shown.
  static func register(subprotocol: String, in mask: inout SecretMask) {
    guard let dot = subprotocol.firstIndex(of: "."), subprotocol.index(after: dot) < subprotocol.endIndex else {
      return
    }
    let token = String(subprotocol[subprotocol.index(after: dot)...])
    if token.count >= 4 { mask.add(token) }
  }

  /// `16 MiB`, `512 KiB` or `100 bytes`.
  static func size(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}

/// Sends stdin's lines as text messages (ad-hoc calls with stdin not a terminal), read on a
/// Dispatch thread so waiting for the next line never blocks the event loop.
enum WebSocketStdin {
  static func sendLines(_ writer: WebSocketFrameWriter) async throws {
    let (lines, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
    DispatchQueue.global().async {
      do {
        try StandardInput.forEachLine(limit: JSONDocumentSplitter.maxDocumentBytes) { continuation.yield(Array($0)) }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    for try await line in lines {
      var text = line[...]
      if text.last == UInt8(ascii: "\r") { text = text.dropLast() }
      try await writer.send(.text, ByteBuffer(bytes: text))
    }
  }
}
