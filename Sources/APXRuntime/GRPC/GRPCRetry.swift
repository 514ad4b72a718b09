import APXCore
import GRPCCore

/// The gRPC side of apx's retry policy: which status codes are retried, and
/// durations for grpc-swift.
///
/// Retries run in apx's own retry layer (`Executor.retrying`), never in
/// GRPCCore's `RetryPolicy`: GRPCCore caps attempts at 5, traps on values it
/// dislikes, and does not retry once the server has sent initial metadata,
/// which most real servers (grpcio among them) do before failing.
enum GRPCRetry {
  /// The status codes worth retrying for a call: the endpoint's `retryable_codes`,
  /// else the `retry.on_grpc_codes` of the endpoint or API, else UNAVAILABLE.
  static func codes(for request: CallRequest) throws(APXError) -> Set<Int> {
    let names =
      request.endpoint.grpc?.retryableCodes
      ?? APXCore.RetryPolicy.grpcRetryableCodes(api: request.api.retry, endpoint: request.endpoint.retry)
    return Set(try GRPCStatusName.statusCodes(names, file: request.api.sourceFile).map { Int($0.rawValue) })
  }

  /// Seconds as a Duration of at least 1 ms and at most one hour.
  static func duration(_ seconds: Double) -> Duration {
    guard seconds.isFinite, seconds > 0.001 else { return .milliseconds(1) }
    return .milliseconds(DurationConversion.milliseconds(Swift.min(seconds, 3600)))
  }
}
