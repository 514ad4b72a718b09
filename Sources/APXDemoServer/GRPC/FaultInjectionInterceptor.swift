import GRPCCore
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Fails calls on request, so clients' retry logic can be tested against a real server.
///
/// A call carrying `x-demo-fail-times: N` fails for the first N calls made with the same
/// `x-demo-key: K` (the key defaults to the method's full name), then succeeds. The failure is
/// `UNAVAILABLE` unless `x-demo-fail-code: RESOURCE_EXHAUSTED` asks for a quota error, whose
/// message is a JSON object (`{"error":"quota_exceeded",...}`) as real rate limiters send.
///
/// `x-demo-fail-shape` picks how the failure travels: `trailers-only` (the
/// default: status in a single HEADERS frame, what grpc-swift sends for an
/// error before the handler runs) or `after-headers` (initial metadata first,
/// then the status in trailers, as grpcio servers and most real ones do when an
/// interceptor or handler fails). Clients must treat both alike.
struct FaultInjectionInterceptor: ServerInterceptor {
  /// Metadata keys the interceptor reads.
  enum Key {
    static let failTimes = "x-demo-fail-times"
    static let failKey = "x-demo-key"
    static let failCode = "x-demo-fail-code"
    static let failShape = "x-demo-fail-shape"
  }

  /// How an injected failure is sent.
  enum Shape: String {
    case trailersOnly = "trailers-only"
    case afterHeaders = "after-headers"
  }

  private let counters: FaultCounters

  /// Creates an interceptor whose counters live as long as the server.
  init(counters: FaultCounters) {
    self.counters = counters
  }

  func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next:
      @Sendable (StreamingServerRequest<Input>, ServerContext) async throws ->
      StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    guard let timesText = request.metadata.firstString(Key.failTimes)
    else {
      return try await next(request, context)
    }
    guard let times = Int(timesText[...].trimmingSpaces()), times >= 0 else {
      return StreamingServerResponse(
        error: RPCError(
          code: .invalidArgument,
          message: "\(Key.failTimes) must be a non-negative integer, got '\(timesText)'."
        )
      )
    }
    let shapeText = request.metadata.firstString(Key.failShape)?.lowercased() ?? Shape.trailersOnly.rawValue
    guard let shape = Shape(rawValue: shapeText) else {
      return StreamingServerResponse(
        error: RPCError(
          code: .invalidArgument,
          message: "\(Key.failShape) must be trailers-only or after-headers, got '\(shapeText)'."
        )
      )
    }
    let key =
      request.metadata.firstString(Key.failKey)
      ?? context.descriptor.fullyQualifiedMethod
    let attempt = self.counters.recordAttempt(forKey: key)
    guard attempt <= times else {
      return try await next(request, context)
    }

    let error: RPCError
    let codeName = request.metadata.firstString(Key.failCode)
    if let codeName, codeName.uppercased() == "RESOURCE_EXHAUSTED" {
      let message =
        #"{"error":"quota_exceeded","detail":"demo quota exhausted","attempt":\#(attempt),"#
        + #""fail_times":\#(times),"retry_after_ms":100}"#
      error = RPCError(code: .resourceExhausted, message: message, metadata: ["retry-after": "0.1"])
    } else {
      error = RPCError(
        code: .unavailable,
        message: "Demo fault injection: attempt \(attempt) of \(times) failing for key '\(key)'; retry."
      )
    }
    switch shape {
    case .trailersOnly:
      return StreamingServerResponse(error: error)
    case .afterHeaders:
      // Accept the call (initial metadata goes out), then fail it in the trailers.
      return StreamingServerResponse(of: Output.self, metadata: ["x-demo-fault": "after-headers"]) { _ in
        throw error
      }
    }
  }
}

/// How many calls each fault-injection key has seen, shared by all calls to one server.
final class FaultCounters: Sendable {
  private let attempts = Mutex<[String: Int]>([:])

  /// Creates empty counters.
  init() {}

  /// Counts one more call for `key` and returns its 1-based attempt number.
  func recordAttempt(forKey key: String) -> Int {
    self.attempts.withLock { attempts in
      let attempt = attempts[key, default: 0] + 1
      attempts[key] = attempt
      return attempt
    }
  }
}
