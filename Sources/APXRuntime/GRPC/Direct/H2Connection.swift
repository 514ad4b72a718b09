import NIOCore
import NIOHPACK

/// Why an HTTP/2 connection can no longer be used.
enum H2Failure: Error, CustomStringConvertible {
  case socket(SocketFailure)
  /// The server broke the protocol (a frame apx cannot accept): the connection is dropped.
  case protocolViolation(String)
  case closed

  var description: String {
    switch self {
    case .socket(let failure): failure.description
    case .protocolViolation(let what): "the server broke the HTTP/2 protocol: \(what)"
    case .closed: "the server closed the connection"
    }
  }
}

/// What happens on the connection's current stream.
enum H2StreamEvent {
  case headers(HPACKHeaders, endStream: Bool)
  case data(ArraySlice<UInt8>, endStream: Bool)
  /// RST_STREAM with its error code.
  case reset(UInt32)
  /// GOAWAY that leaves the stream unprocessed (its id is above the server's last): safe to retry.
  case goAway(UInt32)
}

/// A plaintext HTTP/2 client connection (RFC 9113) that runs one stream at a time, with
/// blocking reads and writes under a deadline: what `DirectGRPC` needs for a gRPC call
/// that sends one message, and for reflection.
///
/// Why by hand, not grpc-swift's NIO transport: a CLI call makes one connection and one or two
/// streams, and building NIO's channel pipeline, NIOHTTP2's multiplexer and grpc-swift's
/// connection pool cost about 6 ms of the 8.4 ms of CPU of a call with reflection (`perf`,
/// release build, session 12), much of it the Swift runtime's first conformance lookups for
/// each handler type. HPACK is apx's own (`HeaderBlockDecoder`; `HuffmanDecoder` says why).
/// Streams run one after another, so there is no multiplexing; flow control is kept for both directions; server push is refused
/// (SETTINGS_ENABLE_PUSH = 0).
///
/// Not thread-safe: `DirectGRPCPool` lends a connection to one thread at a time.
final class H2Connection: @unchecked Sendable {
  static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
  /// The largest frame apx accepts: the protocol's default, never raised.
  static let maxFrameSize = 16_384
  /// The flow-control window apx grants each stream and the connection (the largest
  /// default gRPC message, 4 MiB, fits in one).
  static let receiveWindow = 4 * 1_048_576 + 16_384
  /// The largest header block (initial metadata or trailers) apx decodes, as grpc-swift's.
  static let maxHeaderListSize = 16_384

  /// Header names whose values are credentials.
  static let sensitive: Set<String> = ["authorization", "proxy-authorization", "cookie"]

  private let socket: BlockingSocket
  private var input: [UInt8] = []
  private var inputStart = 0
  private var decoder = HeaderBlockDecoder(maxHeaderListSize: H2Connection.maxHeaderListSize)

  private var peerMaxFrameSize = 16_384
  private var peerInitialWindow = 65_535
  private var connectionSendWindow = 65_535
  private var streamSendWindow = 0
  private var connectionUnacknowledged = 0
  private var streamUnacknowledged = 0
  private var nextStreamID: UInt32 = 1
  private var current: UInt32 = 0
  private var remoteClosed = false
  private var localClosed = false
  private var pending: [H2StreamEvent] = []
  private var headerBlock: (stream: UInt32, endStream: Bool, bytes: [UInt8])?
  private var goAwayLastStream: UInt32?
  private var failure: H2Failure?
  /// Why a write failed, after which the connection is only read.
  private var writeFailure: H2Failure?

  private init(socket: BlockingSocket) {
    self.socket = socket
  }

  /// Connects (to `addresses` when the host's name was resolved before, else resolving it
  /// here) and sends the connection preface and apx's settings; the server's settings are read
  /// with its first answer (a client need not wait for them, RFC 9113 §3.4).
  static func open(
    host: String, port: Int, addresses: [ResolvedAddress] = [], deadline: NIODeadline
  ) throws(H2Failure) -> H2Connection {
    let socket: BlockingSocket
    do {
      socket =
        addresses.isEmpty
        ? try BlockingSocket.connect(host: host, port: port, deadline: deadline)
        : try BlockingSocket.connect(to: addresses, host: host, deadline: deadline)
    } catch {
      throw .socket(error)
    }
    let connection = H2Connection(socket: socket)
    var settings: [UInt8] = []
    for (id, value) in [(2, 0), (4, receiveWindow), (6, maxHeaderListSize)] {
      settings += [UInt8(id >> 8), UInt8(id & 0xff)] + H2Frame.bigEndian(UInt32(value))
    }
    let start =
      preface + H2Frame.bytes(.settings, stream: 0, payload: settings)
      + H2Frame.bytes(.windowUpdate, stream: 0, payload: H2Frame.bigEndian(UInt32(receiveWindow - 65_535)))
    try connection.write(start, deadline: deadline)
    return connection
  }

  /// Reads, without waiting for more, what the server sent while the connection sat idle
  /// between exchanges (a GOAWAY, a PING, new SETTINGS, or its close), so that `isUsable` then
  /// says whether a new stream may start. Servers and proxies close idle connections (grpc-go's
  /// MaxConnectionIdle, a load balancer's idle timeout); a recipe's next step would otherwise
  /// send its request into one and fail.
  ///
  /// Only frames of the connection (stream 0) and of the stream that ended are read: a frame
  /// for a later stream stays buffered for the exchange that opens it.
  func readIdleFrames() {
    guard failure == nil else { return }
    while input.count - inputStart > 0 || socket.hasInput {
      do {
        // A frame that has begun arriving is read whole; one cut short for 100 ms is given up.
        let deadline = NIODeadline.now() + .milliseconds(100)
        try fill(H2Frame.headerSize, deadline: deadline)
        let stream = H2Frame.uint32(input[(inputStart + 5)..<(inputStart + 9)], at: 0) & 0x7fff_ffff
        guard stream == 0 || stream == current else { return }
        try readFrame(deadline: deadline)
      } catch {
        fail(error)
        return
      }
    }
  }

  /// Whether a new stream may start: not broken, no GOAWAY, stream ids left.
  var isUsable: Bool {
    failure == nil && writeFailure == nil && goAwayLastStream == nil && nextStreamID < 0x7fff_0000
  }

  /// Starts a stream with `headers` (pseudo-headers first), ending the previous one.
  func startStream(_ headers: [(String, String)], deadline: NIODeadline) throws(H2Failure) {
    try checkUsable()
    current = nextStreamID
    nextStreamID += 2
    pending = []
    remoteClosed = false
    localClosed = false
    streamSendWindow = peerInitialWindow
    streamUnacknowledged = 0
    let bytes = HeaderBlockEncoder.encode(headers, sensitive: Self.sensitive)
    var frames: [UInt8] = []
    var offset = 0
    repeat {
      let end = min(offset + peerMaxFrameSize, bytes.count)
      let last = end == bytes.count
      frames += H2Frame.bytes(
        offset == 0 ? .headers : .continuation, flags: last ? H2Frame.endHeaders : 0, stream: current,
        payload: bytes[offset..<end])
      offset = end
    } while offset < bytes.count
    try write(frames, deadline: deadline)
  }

  /// Sends `bytes` as DATA on the current stream within the flow-control windows, then
  /// END_STREAM when `endStream`. Stops early, without an error, once the server has ended
  /// or reset the stream (its answer says why).
  func send(_ bytes: [UInt8], endStream: Bool, deadline: NIODeadline) throws(H2Failure) {
    var offset = 0
    repeat {
      if remoteClosed { return }
      let window = min(connectionSendWindow, streamSendWindow, peerMaxFrameSize)
      let left = bytes.count - offset
      if left > 0, window <= 0 {
        try readFrame(deadline: deadline)
        continue
      }
      let end = offset + min(left, window)
      let last = end == bytes.count
      try write(
        H2Frame.bytes(
          .data, flags: last && endStream ? H2Frame.endStream : 0, stream: current, payload: bytes[offset..<end]),
        deadline: deadline)
      connectionSendWindow -= end - offset
      streamSendWindow -= end - offset
      offset = end
    } while offset < bytes.count
    if endStream { localClosed = true }
  }

  /// The current stream's next event, reading frames until there is one.
  func next(deadline: NIODeadline) throws(H2Failure) -> H2StreamEvent {
    while pending.isEmpty { try readFrame(deadline: deadline) }
    return pending.removeFirst()
  }

  /// Ends the current stream early with RST_STREAM (CANCEL), unless both sides have ended it.
  func cancelStream(deadline: NIODeadline) {
    defer { current = 0 }
    guard current != 0, failure == nil, !(remoteClosed && localClosed) else { return }
    try? write(H2Frame.bytes(.resetStream, stream: current, payload: H2Frame.bigEndian(8)), deadline: deadline)
  }

  /// Closes the socket.
  func close() {
    socket.close()
    failure = failure ?? .closed
  }

  private func checkUsable() throws(H2Failure) {
    if let failure { throw failure }
    guard isUsable else { throw .closed }
  }

  @discardableResult
  private func fail(_ failure: H2Failure) -> H2Failure {
    self.failure = self.failure ?? failure
    socket.close()
    return failure
  }

  /// Writes `bytes`. A server may answer and close before it has read all of a request (a
  /// refusal, a trailers-only status): once a write fails, nothing more is written, and what the
  /// server sent is still read, so that its answer, not "broken pipe", is what the user sees.
  private func write(_ bytes: [UInt8], deadline: NIODeadline) throws(H2Failure) {
    if let failure { throw failure }
    guard writeFailure == nil else { return }
    do {
      try socket.write(bytes, deadline: deadline)
    } catch {
      // A write cut short by the deadline may have left half a frame: the connection is done.
      if error.kind == .timedOut { throw fail(.socket(error)) }
      writeFailure = .socket(error)
    }
  }

  /// Makes sure `count` bytes are buffered, reading from the socket as needed.
  private func fill(_ count: Int, deadline: NIODeadline) throws(H2Failure) {
    while input.count - inputStart < count {
      if inputStart > 0, inputStart * 2 > input.count {
        input.removeFirst(inputStart)
        inputStart = 0
      }
      let chunk: [UInt8]
      do {
        chunk = try socket.read(limit: 65_536, deadline: deadline)
      } catch {
        throw error.kind == .timedOut ? .socket(error) : fail(.socket(error))
      }
      if chunk.isEmpty { throw fail(.closed) }
      input += chunk
    }
  }

  /// Reads one frame and acts on it: connection frames are answered here, the current
  /// stream's become events.
  private func readFrame(deadline: NIODeadline) throws(H2Failure) {
    if let failure { throw failure }
    try fill(H2Frame.headerSize, deadline: deadline)
    let h = inputStart
    let length = Int(input[h]) << 16 | Int(input[h + 1]) << 8 | Int(input[h + 2])
    guard length <= Self.maxFrameSize else {
      throw fail(.protocolViolation("a frame of \(length) bytes, more than the \(Self.maxFrameSize) apx accepts"))
    }
    try fill(H2Frame.headerSize + length, deadline: deadline)
    let stream = H2Frame.uint32(input[(h + 5)..<(h + 9)], at: 0) & 0x7fff_ffff
    let frame = H2Frame(
      type: input[h + 3], flags: input[h + 4], stream: stream,
      payload: input[(h + H2Frame.headerSize)..<(h + H2Frame.headerSize + length)])
    inputStart += H2Frame.headerSize + length
    if let block = headerBlock, frame.kind != .continuation || frame.stream != block.stream {
      throw fail(.protocolViolation("a header block was interrupted by another frame"))
    }
    switch frame.kind {
    case .data: try receiveData(frame, deadline: deadline)
    case .headers:
      guard stream != 0, let content = frame.content() else {
        throw fail(.protocolViolation("a malformed HEADERS frame"))
      }
      headerBlock = (stream, frame.has(H2Frame.endStream), Array(content))
      if frame.has(H2Frame.endHeaders) { try finishHeaderBlock() }
    case .continuation:
      guard var block = headerBlock else { throw fail(.protocolViolation("a CONTINUATION frame without HEADERS")) }
      block.bytes += frame.payload
      guard block.bytes.count <= Self.maxHeaderListSize * 4 else {
        throw fail(.protocolViolation("a header block of more than \(Self.maxHeaderListSize * 4) bytes"))
      }
      headerBlock = block
      if frame.has(H2Frame.endHeaders) { try finishHeaderBlock() }
    case .resetStream:
      guard frame.payload.count == 4, stream != 0 else {
        throw fail(.protocolViolation("a malformed RST_STREAM frame"))
      }
      if stream == current {
        remoteClosed = true
        pending.append(.reset(H2Frame.uint32(frame.payload, at: 0)))
      }
    case .settings: try receiveSettings(frame, deadline: deadline)
    case .ping:
      guard frame.payload.count == 8, stream == 0 else { throw fail(.protocolViolation("a malformed PING frame")) }
      if !frame.has(H2Frame.ack) {
        try write(H2Frame.bytes(.ping, flags: H2Frame.ack, stream: 0, payload: frame.payload), deadline: deadline)
      }
    case .goAway:
      guard frame.payload.count >= 8, stream == 0 else { throw fail(.protocolViolation("a malformed GOAWAY frame")) }
      let last = H2Frame.uint32(frame.payload, at: 0) & 0x7fff_ffff
      goAwayLastStream = min(last, goAwayLastStream ?? last)
      if current != 0, current > last, !remoteClosed {
        remoteClosed = true
        pending.append(.goAway(H2Frame.uint32(frame.payload, at: 4)))
      }
    case .windowUpdate: try receiveWindowUpdate(frame)
    case .pushPromise: throw fail(.protocolViolation("a PUSH_PROMISE frame, though apx disabled server push"))
    case .priority, nil: break
    }
  }

  private func receiveData(_ frame: H2Frame, deadline: NIODeadline) throws(H2Failure) {
    guard frame.stream != 0, let content = frame.content() else {
      throw fail(.protocolViolation("a malformed DATA frame"))
    }
    // Every byte counts against the windows, padding and other streams' data included.
    connectionUnacknowledged += frame.payload.count
    var updates: [UInt8] = []
    if connectionUnacknowledged >= Self.receiveWindow / 2 {
      updates += H2Frame.bytes(.windowUpdate, stream: 0, payload: H2Frame.bigEndian(UInt32(connectionUnacknowledged)))
      connectionUnacknowledged = 0
    }
    if frame.stream == current, !remoteClosed {
      let end = frame.has(H2Frame.endStream)
      streamUnacknowledged += frame.payload.count
      guard streamUnacknowledged <= Self.receiveWindow else {
        throw fail(.protocolViolation("the server sent more than the flow-control window allows"))
      }
      if !end, streamUnacknowledged >= Self.receiveWindow / 2 {
        updates += H2Frame.bytes(
          .windowUpdate, stream: current, payload: H2Frame.bigEndian(UInt32(streamUnacknowledged)))
        streamUnacknowledged = 0
      }
      if end { remoteClosed = true }
      pending.append(.data(content, endStream: end))
    }
    if !updates.isEmpty { try write(updates, deadline: deadline) }
  }

  /// Decodes a whole header block, whichever stream it is on: the HPACK table is the
  /// connection's, so a block for an ended stream still changes it.
  private func finishHeaderBlock() throws(H2Failure) {
    guard let block = headerBlock else { return }
    headerBlock = nil
    let headers: HPACKHeaders
    do {
      headers = HPACKHeaders(try decoder.decode(block.bytes).map { ($0.name, $0.value) })
    } catch {
      throw fail(.protocolViolation("a header block apx could not decode (\(error))"))
    }
    guard block.stream == current, !remoteClosed else { return }
    if block.endStream { remoteClosed = true }
    pending.append(.headers(headers, endStream: block.endStream))
  }

  private func receiveSettings(_ frame: H2Frame, deadline: NIODeadline) throws(H2Failure) {
    guard frame.stream == 0 else { throw fail(.protocolViolation("a SETTINGS frame on a stream")) }
    if frame.has(H2Frame.ack) { return }
    guard frame.payload.count % 6 == 0 else { throw fail(.protocolViolation("a malformed SETTINGS frame")) }
    var offset = 0
    while offset < frame.payload.count {
      let i = frame.payload.startIndex + offset
      let id = Int(frame.payload[i]) << 8 | Int(frame.payload[i + 1])
      let value = Int(H2Frame.uint32(frame.payload, at: offset + 2))
      offset += 6
      switch id {
      case 4:
        guard value <= 0x7fff_ffff else { throw fail(.protocolViolation("SETTINGS_INITIAL_WINDOW_SIZE \(value)")) }
        streamSendWindow += value - peerInitialWindow
        peerInitialWindow = value
      case 5:
        guard (16_384...16_777_215).contains(value) else {
          throw fail(.protocolViolation("SETTINGS_MAX_FRAME_SIZE \(value)"))
        }
        peerMaxFrameSize = value
      default: break  // apx's requests never use the server's dynamic table or push
      }
    }
    try write(H2Frame.bytes(.settings, flags: H2Frame.ack, stream: 0, payload: []), deadline: deadline)
  }

  private func receiveWindowUpdate(_ frame: H2Frame) throws(H2Failure) {
    guard frame.payload.count == 4 else { throw fail(.protocolViolation("a malformed WINDOW_UPDATE frame")) }
    let increment = Int(H2Frame.uint32(frame.payload, at: 0) & 0x7fff_ffff)
    if frame.stream == 0 {
      guard increment > 0, connectionSendWindow + increment <= 0x7fff_ffff else {
        throw fail(.protocolViolation("a connection WINDOW_UPDATE of \(increment)"))
      }
      connectionSendWindow += increment
    } else if frame.stream == current {
      streamSendWindow = min(streamSendWindow + increment, 0x7fff_ffff)
    }
  }
}
