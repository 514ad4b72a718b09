import APXCore
import GRPCCore

/// Turns apx's retry policy (registry `retry`, `--retry N`, `--no-retry`)
/// and the endpoint's retryable status codes into GRPCCore's `RetryPolicy`.
///
/// GRPCCore validates its policy with `try!`: it traps on fewer than two
/// attempts, an empty code set, or a backoff that is not positive. Every
/// value is therefore checked (or clamped into range) here first, and no
/// policy is made at all when a call gets a single attempt.
enum GRPCRetry {
  /// GRPCCore treats more than this many attempts as this many.
  static let grpcAttemptsLimit = 5

  /// The execution policy for a call, or nil for a single attempt.
  static func policy(for request: CallRequest) throws(APXError) -> GRPCCore.RetryPolicy? {
    let base = try APXCore.RetryPolicy.effective(
      api: request.api.retry, endpoint: request.endpoint.retry, maxAttemptsOverride: request.maxAttemptsOverride)
    let names =
      request.endpoint.grpc?.retryableCodes
      ?? APXCore.RetryPolicy.grpcRetryableCodes(api: request.api.retry, endpoint: request.endpoint.retry)
    let codes = try GRPCStatusName.statusCodes(names, file: request.api.sourceFile)
    return make(base, codes: codes)
  }

  /// GRPCCore's policy for validated values; nil when there is nothing to retry.
  static func make(_ base: APXCore.RetryPolicy, codes: Set<Status.Code>) -> GRPCCore.RetryPolicy? {
    guard base.maxAttempts > 1, !codes.isEmpty else { return nil }
    // GRPCCore needs strictly positive backoffs; one millisecond stands in for "no wait".
    let initial = duration(base.initialDelay)
    let maximum = Swift.max(duration(base.maxDelay), initial)
    let multiplier = base.multiplier.isFinite && base.multiplier >= 1 ? base.multiplier : 1
    return GRPCCore.RetryPolicy(
      maxAttempts: Swift.min(base.maxAttempts, grpcAttemptsLimit), initialBackoff: initial, maxBackoff: maximum,
      backoffMultiplier: multiplier, retryableStatusCodes: codes)
  }

  /// Seconds as a Duration of at least 1 ms and at most one hour.
  static func duration(_ seconds: Double) -> Duration {
    guard seconds.isFinite, seconds > 0.001 else { return .milliseconds(1) }
    return .milliseconds(DurationConversion.milliseconds(Swift.min(seconds, 3600)))
  }
}
