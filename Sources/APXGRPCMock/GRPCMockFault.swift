public import GRPCCore

/// A failure the mock answers a call with instead of its examples.
public struct GRPCMockFault: Sendable, Hashable {
  /// The status code.
  public var code: RPCError.Code
  /// Whether the status follows response headers (as grpcio servers send it when a handler
  /// fails) rather than coming alone as a trailers-only answer.
  public var afterHeaders: Bool
  /// The status message (by default, one that says the fault was injected).
  public var message: String?
  /// What the mock's log calls the fault (`token expired`); nil names it by its code.
  public var label: String?

  /// Makes a fault.
  public init(code: RPCError.Code, afterHeaders: Bool = false, message: String? = nil, label: String? = nil) {
    self.code = code
    self.afterHeaders = afterHeaders
    self.message = message
    self.label = label
  }
}

/// What the mock saw of one call, for its log.
public struct GRPCMockCall: Sendable {
  /// `/package.Service/Method`.
  public var path: String
  /// Request messages received.
  public var requests: Int
  /// Response messages sent.
  public var responses: Int
  /// The status the call ended with (`ok` or the error's code).
  public var status: RPCError.Code?
  /// The fault that answered it, if one did.
  public var fault: GRPCMockFault?
  /// The request metadata, as text (a binary entry as its size).
  public var metadata: [(name: String, value: String)] = []
  /// Milliseconds the call waited before it was answered (`latency`).
  public var latency = 0
}
