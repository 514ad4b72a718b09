/// When and how often a failed call is tried again: policy as plain data.
///
/// Delays are exponential (`initialDelay * multiplier^(n-1)` after attempt
/// `n`), capped at `maxDelay`, with optional full jitter. Nothing here reads a
/// clock or sleeps: `delay(afterAttempt:random:)`, `delays(random:)` and
/// `decide(...)` compute values the runtime acts on.
///
/// Build one with the throwing initializer, or call `validate()` after
/// changing fields, so out-of-range values from a registry file are rejected
/// with a clear error before they reach the runtime (or GRPCCore, which traps).
public struct RetryPolicy: Sendable, Hashable {
  /// How a computed delay is randomised.
  public enum Jitter: String, Sendable, Hashable, CaseIterable {
    /// Uniform in `[0, delay]` ("full jitter"), which spreads out clients
    /// that failed together so they do not retry in lockstep.
    case full
    /// The computed delay exactly.
    case none
  }

  /// Total attempts including the first one (1 means never retry), 1...100.
  public var maxAttempts: Int
  /// Seconds before the first retry (before jitter), finite and >= 0.
  public var initialDelay: Double
  /// Growth factor between consecutive delays, finite and >= 1.
  public var multiplier: Double
  /// Upper bound in seconds for any delay, `Retry-After` included; >= initialDelay.
  public var maxDelay: Double
  /// How delays are randomised.
  public var jitter: Jitter
  /// HTTP statuses that are worth retrying.
  public var retryOnStatus: Set<Int>
  /// Whether a failure to connect or a dropped connection is retried.
  public var retryOnConnectionFailure: Bool
  /// Whether an attempt that timed out is retried.
  public var retryOnTimeout: Bool
  /// gRPC status codes worth retrying (numbers, e.g. 14 for UNAVAILABLE).
  public var retryOnGRPCCodes: Set<Int> = RetryPolicy.defaultRetryGRPCCodes

  /// UNAVAILABLE (14): the server did not take the call.
  public static let defaultRetryGRPCCodes: Set<Int> = [14]

  /// Request Timeout, Too Early, Too Many Requests, and the transient 5xx.
  public static let defaultRetryStatuses: Set<Int> = [408, 425, 429, 500, 502, 503, 504]

  /// The highest `maxAttempts` accepted: beyond it a typo is likelier than intent.
  public static let attemptsLimit = 100

  /// 3 attempts, 0.5 s doubling up to 30 s with full jitter, default statuses,
  /// connection failures and timeouts retried.
  public static let standard = RetryPolicy(
    unchecked: 3, initialDelay: 0.5, multiplier: 2, maxDelay: 30, jitter: .full,
    retryOnStatus: defaultRetryStatuses, retryOnConnectionFailure: true, retryOnTimeout: true)

  /// One attempt only (`--no-retry`).
  public static let never = RetryPolicy(
    unchecked: 1, initialDelay: 0, multiplier: 1, maxDelay: 0, jitter: .none,
    retryOnStatus: [], retryOnConnectionFailure: false, retryOnTimeout: false, retryOnGRPCCodes: [])

  /// Makes a policy and validates it.
  ///
  /// - Throws: `APXError` with status `.invalidDefinition` when a value is out
  ///   of range (see `validate(path:)`).
  public init(
    maxAttempts: Int = 3, initialDelay: Double = 0.5, multiplier: Double = 2, maxDelay: Double = 30,
    jitter: Jitter = .full, retryOnStatus: Set<Int> = RetryPolicy.defaultRetryStatuses,
    retryOnConnectionFailure: Bool = true, retryOnTimeout: Bool = true,
    retryOnGRPCCodes: Set<Int> = RetryPolicy.defaultRetryGRPCCodes
  ) throws(APXError) {
    self.init(
      unchecked: maxAttempts, initialDelay: initialDelay, multiplier: multiplier, maxDelay: maxDelay,
      jitter: jitter, retryOnStatus: retryOnStatus, retryOnConnectionFailure: retryOnConnectionFailure,
      retryOnTimeout: retryOnTimeout, retryOnGRPCCodes: retryOnGRPCCodes)
    try validate()
  }

  private init(
    unchecked maxAttempts: Int, initialDelay: Double, multiplier: Double, maxDelay: Double, jitter: Jitter,
    retryOnStatus: Set<Int>, retryOnConnectionFailure: Bool, retryOnTimeout: Bool,
    retryOnGRPCCodes: Set<Int> = RetryPolicy.defaultRetryGRPCCodes
  ) {
    self.maxAttempts = maxAttempts
    self.initialDelay = initialDelay
    self.multiplier = multiplier
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.retryOnStatus = retryOnStatus
    self.retryOnConnectionFailure = retryOnConnectionFailure
    self.retryOnTimeout = retryOnTimeout
    self.retryOnGRPCCodes = retryOnGRPCCodes
  }

  /// Checks every field and throws the first problem found.
  ///
  /// - Parameter path: where the policy sits in its file (e.g. `.retry`); the
  ///   error's `path` becomes that plus the registry key (`.retry.max_attempts`).
  /// - Throws: `APXError` with status `.invalidDefinition`.
  public func validate(path: String? = nil) throws(APXError) {
    func fail(_ key: String, _ message: String, hint: String) -> APXError {
      APXError(.invalidDefinition, "retry \(key) \(message)", hint: hint, path: path.map { "\($0).\(key)" })
    }
    guard (1...Self.attemptsLimit).contains(maxAttempts) else {
      throw fail(
        "max_attempts", "must be between 1 and \(Self.attemptsLimit), got \(maxAttempts)",
        hint: "max_attempts counts the first try too: use 1 to disable retries, e.g. 4 for three retries.")
    }
    guard initialDelay.isFinite, initialDelay >= 0 else {
      throw fail(
        "initial_delay", "must be a finite number of seconds >= 0, got \(initialDelay)",
        hint: "Use seconds, e.g. 0.5 for half a second.")
    }
    guard multiplier.isFinite, multiplier >= 1 else {
      throw fail(
        "multiplier", "must be a finite number >= 1, got \(multiplier)",
        hint: "Use 2 to double the delay after each attempt, or 1 for a constant delay.")
    }
    guard maxDelay.isFinite, maxDelay >= 0 else {
      throw fail(
        "max_delay", "must be a finite number of seconds >= 0, got \(maxDelay)",
        hint: "Use seconds, e.g. 30.")
    }
    guard maxDelay >= initialDelay else {
      throw fail(
        "max_delay", "(\(maxDelay)) must not be smaller than initial_delay (\(initialDelay))",
        hint: "Raise max_delay or lower initial_delay.")
    }
    if let bad = retryOnStatus.sorted().first(where: { !(100...599).contains($0) }) {
      throw fail(
        "on_status", "contains \(bad), which is not an HTTP status code",
        hint: "List HTTP statuses between 100 and 599, e.g. [429, 503].")
    }
    if let bad = retryOnGRPCCodes.sorted().first(where: { !(0...16).contains($0) }) {
      throw fail(
        "on_grpc_codes", "contains \(bad), which is not a gRPC status code",
        hint: "List gRPC status names, e.g. [\"UNAVAILABLE\"].")
    }
  }
}
