import APXCore
import APXProtobuf
import GRPCCore
import NIOCore
import NIOHPACK

/// One gRPC call on an `H2Connection` (the gRPC over HTTP/2 protocol, PROTOCOL-HTTP2.md in
/// grpc/grpc): the request headers and length-prefixed messages out, the response's
/// metadata, messages and status in. Its failures are `RPCError`s as grpc-swift's, so that
/// `GRPCFailure` explains them the same way whichever client made the call.
struct DirectGRPCStream {
  let connection: H2Connection
  let deadline: NIODeadline
  let maxMessageSize: Int
  /// Initial metadata, once the server's first headers arrived (nil for a trailers-only answer).
  private(set) var initialMetadata: Metadata?
  /// Trailing metadata without `grpc-status` and `grpc-message`, once the call ended.
  private(set) var trailingMetadata = Metadata()
  private var buffer: [UInt8] = []
  private var ended = false

  /// Starts a call of `path` (`/package.Service/Method`).
  init(
    on connection: H2Connection, authority: String, path: String, metadata: Metadata, timeout: Duration?,
    deadline: NIODeadline, maxMessageSize: Int
  ) throws(RPCError) {
    self.connection = connection
    self.deadline = deadline
    self.maxMessageSize = maxMessageSize
    var headers = [
      (":method", "POST"), (":scheme", "http"), (":path", path), (":authority", authority),
      ("content-type", "application/grpc"), ("te", "trailers"), ("user-agent", "apx/0.1.0"),
    ]
    if let timeout { headers.append(("grpc-timeout", Self.timeoutText(timeout))) }
    for entry in metadata {
      switch entry.value {
      case .string(let text): headers.append((entry.key.lowercased(), text))
      case .binary(let bytes): headers.append((entry.key.lowercased(), Base64.encode(bytes)))
      }
    }
    do {
      try connection.startStream(headers, deadline: deadline)
    } catch {
      throw Self.rpcError(error, connected: false)
    }
  }

  /// Sends one message, length-prefixed and uncompressed; `end` half-closes the stream.
  func send(_ message: [UInt8], end: Bool) throws(RPCError) {
    let length = UInt32(message.count)
    do {
      try connection.send([0] + H2Frame.bigEndian(length) + message, endStream: end, deadline: deadline)
    } catch {
      throw Self.rpcError(error, connected: true)
    }
  }

  /// The next response message, or nil once the call ended with OK; a non-OK status is thrown.
  mutating func next() throws(RPCError) -> [UInt8]? {
    while true {
      if let message = try takeMessage() { return message }
      if ended {
        guard buffer.isEmpty else {
          throw RPCError(code: .internalError, message: "the server ended the call inside a message")
        }
        return nil
      }
      let event: H2StreamEvent
      do {
        event = try connection.next(deadline: deadline)
      } catch {
        throw Self.rpcError(error, connected: true)
      }
      switch event {
      case .data(let bytes, let end):
        guard initialMetadata != nil else {
          throw RPCError(code: .internalError, message: "the server sent a message before its headers")
        }
        buffer += bytes
        if end { throw RPCError(code: .internalError, message: "the server ended the call without a status") }
      case .headers(let headers, let end):
        try receive(headers, end: end)
      case .reset(let code):
        throw Self.resetError(code)
      case .goAway(let code):
        throw RPCError(
          code: .unavailable,
          message: "the server is shutting the connection down (GOAWAY, code \(code)) and did not take the call")
      }
    }
  }

  /// Ends the call early (RST_STREAM CANCEL) unless it has ended.
  func cancel() {
    connection.cancelStream(deadline: deadline)
  }

  private mutating func receive(_ headers: HPACKHeaders, end: Bool) throws(RPCError) {
    if initialMetadata == nil {
      let status = headers.first(name: ":status")
      if let status, status.hasPrefix("1"), status.count == 3, !end { return }  // 1xx: another follows
      let grpcStatus = headers.first(name: "grpc-status")
      guard status == "200" || grpcStatus != nil else {
        throw RPCError(
          code: RPCError.Code(Status(httpStatusCode: Int(status ?? "") ?? 0).code) ?? .unknown,
          message: status.map { "Unexpected non-200 HTTP Status Code (\($0))." } ?? "HTTP Status Code is missing.",
          metadata: Self.metadata(headers))
      }
      if !end {
        guard headers.first(name: "content-type")?.hasPrefix("application/grpc") == true else {
          throw RPCError(code: .internalError, message: "Missing content-type header", metadata: Self.metadata(headers))
        }
        if let encoding = headers.first(name: "grpc-encoding"), encoding != "identity" {
          throw RPCError(
            code: .internalError,
            message: "The server picked a compression algorithm ('\(encoding)') the client does not know about.")
        }
        initialMetadata = Self.metadata(headers)
        return
      }
    } else if !end {
      throw RPCError(code: .internalError, message: "the server sent a second set of headers before its trailers")
    }
    // Trailers (or a trailers-only answer): the call's status.
    ended = true
    var metadata = Self.metadata(headers)
    metadata.removeAllValues(forKey: "grpc-status")
    metadata.removeAllValues(forKey: "grpc-message")
    trailingMetadata = metadata
    let statusText = headers.first(name: "grpc-status")
    guard let statusText, let value = Int(statusText), let code = Status.Code(rawValue: value) else {
      throw RPCError(
        code: .unknown,
        message: statusText.map { "Invalid 'grpc-status' in trailers (\($0))" } ?? "No 'grpc-status' value in trailers",
        metadata: metadata)
    }
    guard code == .ok else {
      let message = headers.first(name: "grpc-message").map(PercentDecoding.decode) ?? ""
      throw RPCError(code: RPCError.Code(code) ?? .unknown, message: message, metadata: metadata)
    }
  }

  /// A whole message from the buffer, if one has arrived.
  private mutating func takeMessage() throws(RPCError) -> [UInt8]? {
    guard buffer.count >= 5 else { return nil }
    let length = Int(H2Frame.uint32(buffer[1...], at: 0))
    guard length <= maxMessageSize else {
      throw RPCError(
        code: .resourceExhausted,
        message: "Message has exceeded the configured maximum payload size (max: \(maxMessageSize), actual: \(length))")
    }
    guard buffer[0] == 0 else {
      throw RPCError(code: .internalError, message: "the server sent a compressed message though apx asked for none")
    }
    guard buffer.count >= 5 + length else { return nil }
    let message = Array(buffer[5..<(5 + length)])
    buffer.removeFirst(5 + length)
    return message
  }

  /// Headers as gRPC metadata, `-bin` values base64-decoded (as grpc-swift does).
  static func metadata(_ headers: HPACKHeaders) -> Metadata {
    var metadata = Metadata()
    for header in headers {
      if header.name.hasSuffix("-bin"), let bytes = Base64.decode(header.value) {
        metadata.addBinary(bytes, forKey: header.name)
      } else {
        metadata.addString(header.value, forKey: header.name)
      }
    }
    return metadata
  }

  /// The deadline `timeout` from now (none without one).
  static func deadline(after timeout: Duration?) -> NIODeadline {
    guard let timeout else { return .distantFuture }
    let (seconds, attoseconds) = timeout.components
    let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .distantFuture }
    return .now() + .nanoseconds(whole + max(0, attoseconds) / 1_000_000_000)
  }

  /// `grpc-timeout`: at most 8 digits and a unit.
  static func timeoutText(_ timeout: Duration) -> String {
    let (seconds, attoseconds) = timeout.components
    let micros = max(0, seconds) * 1_000_000 + max(0, attoseconds) / 1_000_000_000_000
    if micros < 100_000_000 { return "\(max(micros, 1))u" }
    let millis = micros / 1_000
    if millis < 100_000_000 { return "\(millis)m" }
    return "\(min(millis / 1_000, 99_999_999))S"
  }

  /// RST_STREAM error code to gRPC code (PROTOCOL-HTTP2.md, "Errors").
  static func resetError(_ code: UInt32) -> RPCError {
    let mapped: RPCError.Code =
      switch code {
      case 0x7: .unavailable  // REFUSED_STREAM: not processed, safe to retry
      case 0x8: .cancelled
      case 0xb: .resourceExhausted  // ENHANCE_YOUR_CALM
      case 0xc: .permissionDenied  // INADEQUATE_SECURITY
      default: .internalError
      }
    return RPCError(code: mapped, message: "the server reset the stream (RST_STREAM, HTTP/2 error code \(code))")
  }

  /// A connection failure as grpc-swift reports it: UNAVAILABLE (DEADLINE_EXCEEDED once the
  /// deadline passed), with the reason as its cause.
  static func rpcError(_ failure: H2Failure, connected: Bool) -> RPCError {
    if case .socket(let socket) = failure, socket.kind == .timedOut {
      return RPCError(code: .deadlineExceeded, message: "the call's deadline passed")
    }
    let message = connected ? "the connection failed during the call" : "could not connect to the server"
    return RPCError(
      code: .unavailable, message: message, cause: DirectConnectionError(failure: failure, connected: connected))
  }
}

/// The cause of an UNAVAILABLE error from the direct client; `connected` is false when no
/// connection could be made (refused, unreachable), which `GRPCFailure` reports as a
/// network error.
struct DirectConnectionError: Error, CustomStringConvertible {
  let failure: H2Failure
  let connected: Bool
  var description: String { failure.description }
}
