import APXCore
import GRPCCore
import Synchronization

/// A client interceptor that reports each attempt of one method as a
/// `.requestSent` event (metadata masked) and, when GRPCCore's retry policy
/// starts another attempt, a note saying why the previous one failed: the
/// retries themselves run inside GRPCCore.
final class GRPCAttemptReporter: ClientInterceptor, Sendable {
  let url: String
  let descriptor: MethodDescriptor
  let sink: any CallEventSink
  let mask: SecretMask
  private let state = Mutex<(attempts: Int, lastFailure: String?)>((0, nil))

  init(url: String, descriptor: MethodDescriptor, sink: any CallEventSink, mask: SecretMask) {
    self.url = url
    self.descriptor = descriptor
    self.sink = sink
    self.mask = mask
  }

  /// Attempts made so far.
  var attempts: Int { state.withLock { $0.attempts } }

  func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingClientRequest<Input>, context: ClientContext,
    next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
  ) async throws -> StreamingClientResponse<Output> {
    guard context.descriptor == descriptor else { return try await next(request, context) }
    let (attempt, previous) = state.withLock { s -> (Int, String?) in
      s.attempts += 1
      return (s.attempts, s.lastFailure)
    }
    if attempt > 1, let previous {
      try? sink.receive(.note("attempt \(attempt - 1) failed with \(previous); retrying (attempt \(attempt))"))
    }
    try? sink.receive(
      .requestSent(
        method: "POST", url: url, headers: mask.mask(GRPCMetadata.fields(request.metadata)), attempt: attempt))
    let response = try await next(request, context)
    if case .failure(let error) = response.accepted {
      let text = "\(GRPCStatusName.name(of: error.code.rawValue)): \(mask.mask(error.message))"
      state.withLock { $0.lastFailure = text }
    }
    return response
  }
}
