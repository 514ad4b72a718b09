import APXCore
import GRPCCore
import NIOCore

extension Exchange {
  /// The call on the direct client (`GRPCSession.carrier` chooses it only for a call that
  /// sends one message and answers with one): the answer is collected on the client's
  /// thread, then turned into the same events, in the same order, as `run`'s.
  func runDirect(
    _ messages: RequestMessages, pool: DirectGRPCPool, target: GRPCTarget, authority: String, metadata: Metadata,
    options: CallOptions, deadline: NIODeadline
  ) async throws -> CallOutcome {
    guard case .single(let bytes) = messages.body else {
      throw APXError(
        .internalFailure, "a streamed request reached apx's direct gRPC client",
        hint: "this is a bug in apx: request streams go through grpc-swift's client")
    }
    let answer = try await pool.unary(
      target, authority: authority, path: "/\(descriptor.fullyQualifiedMethod)", message: bytes, metadata: metadata,
      timeout: options.timeout, deadline: deadline,
      maxMessageSize: options.maxResponseMessageBytes ?? GRPCSettings.defaultMaxMessageSize)
    if let head = answer.initialMetadata { try receiveHead(head) }
    var count = 0
    for message in answer.messages {
      count += 1
      try receive(message, number: count)
      if let maxEvents, count >= maxEvents { return CallOutcome(status: 200, headers: []) }
    }
    if let error = answer.error { throw error }
    let trailers = GRPCMetadata.fields(answer.trailingMetadata)
    try sink.receive(.trailers(trailers))
    return CallOutcome(status: 200, headers: trailers)
  }
}
