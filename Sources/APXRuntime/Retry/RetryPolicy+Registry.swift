public import APXCore

extension RetryPolicy {
  /// The policy built from a registry `retry` block; unset fields take the
  /// defaults of `RetryPolicy.standard`.
  ///
  /// - Throws: `APXError` (`.invalidDefinition`) when a value is out of range.
  public init(config: RetryConfig) throws(APXError) {
    let standard = RetryPolicy.standard
    let initialDelay = config.initialDelay ?? standard.initialDelay
    // A registry that raises initial_delay past the default cap means "wait at least that long".
    let maxDelay = config.maxDelay ?? Swift.max(standard.maxDelay, initialDelay)
    try self.init(
      maxAttempts: config.maxAttempts ?? standard.maxAttempts, initialDelay: initialDelay,
      multiplier: config.multiplier ?? standard.multiplier, maxDelay: maxDelay,
      jitter: config.jitter == false ? .none : .full,
      retryOnStatus: config.onStatus.map(Set.init) ?? RetryPolicy.defaultRetryStatuses)
  }

  /// The policy in force for one call: the endpoint's `retry` fields over
  /// the API's, over the defaults; then `--retry N` / `--no-retry`
  /// (`maxAttemptsOverride`, 1 meaning never retry) sets the attempt count.
  ///
  /// gRPC transports use the same attempt count and delays (see
  /// `grpcRetryableCodes(api:endpoint:)` for the codes).
  public static func effective(
    api: RetryConfig?, endpoint: RetryConfig?, maxAttemptsOverride: Int?
  ) throws(APXError) -> RetryPolicy {
    let config = endpoint.map { $0.overriding(api) } ?? api ?? RetryConfig()
    var policy = try RetryPolicy(config: config)
    if let maxAttemptsOverride {
      policy.maxAttempts = maxAttemptsOverride
      try policy.validate()
    }
    return policy
  }

  /// The gRPC status names worth retrying for a call: the endpoint's
  /// `on_grpc_codes`, else the API's, else `["UNAVAILABLE"]`.
  public static func grpcRetryableCodes(api: RetryConfig?, endpoint: RetryConfig?) -> [String] {
    endpoint?.onGRPCCodes ?? api?.onGRPCCodes ?? ["UNAVAILABLE"]
  }
}
