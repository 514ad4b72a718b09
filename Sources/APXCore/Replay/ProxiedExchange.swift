/// A request the recording proxy (`apx mock --record`) received, as it came in: what the
/// server side hands to the side that forwards it upstream and records the exchange.
public struct ProxiedRequest: Sendable {
  /// The method, as sent.
  public var method: String
  /// The request target: the path and query, percent-encoded as sent (`/v1/items?q=a%20b`).
  public var target: String
  /// The header fields in the order received (no `Host`: the upstream gets its own).
  public var headers: [HeaderField]
  /// The whole body (empty when there was none).
  public var body: [UInt8]

  /// Makes a request.
  public init(method: String, target: String, headers: [HeaderField], body: [UInt8]) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
  }
}

/// The answer the recording proxy sends back: the head at once, the body as it arrives.
public struct ProxiedResponse: Sendable {
  /// The status.
  public var status: Int
  /// The header fields to send (without hop-by-hop fields and those that framed the upstream's bytes).
  public var headers: [HeaderField]
  /// Streams the body: calls `write` with each piece as it arrives, returns when the body has
  /// ended. `write` throws when the client has gone; the stream then stops.
  public var body: @Sendable (_ write: @Sendable ([UInt8]) async throws -> Void) async throws -> Void

  /// Makes a response.
  public init(
    status: Int, headers: [HeaderField],
    body: @escaping @Sendable (_ write: @Sendable ([UInt8]) async throws -> Void) async throws -> Void
  ) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response whose whole body is `bytes`.
  public init(status: Int, headers: [HeaderField], bytes: [UInt8]) {
    self.init(status: status, headers: headers) { write in if !bytes.isEmpty { try await write(bytes) } }
  }
}
