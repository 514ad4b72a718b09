/// How an SSE stream reconnects after its connection ends, as plain data
/// (the registry's `"reconnect": {"delays": [5, 10, 20, 30], "max_failures": 3}`).
public struct SSEReconnectPolicy: Sendable, Hashable {
  /// Seconds to wait before reconnection 1, 2, 3…; the last one repeats.
  public var delays: [Double]
  /// How many reconnections in a row may fail (end without delivering an
  /// event) before the stream gives up and falls back (e.g. to polling).
  /// 0 falls back as soon as the first connection ends.
  public var maxConsecutiveFailures: Int

  /// 5, 10, 20, then 30 seconds; fall back after 3 failed reconnections.
  public static let standard = SSEReconnectPolicy(unchecked: [5, 10, 20, 30], maxConsecutiveFailures: 3)

  /// The highest `maxConsecutiveFailures` accepted.
  public static let failuresLimit = 1000

  /// Makes a policy and validates it.
  ///
  /// - Throws: `APXError` with status `.invalidDefinition` (see `validate(path:)`).
  public init(delays: [Double] = [5, 10, 20, 30], maxConsecutiveFailures: Int = 3) throws(APXError) {
    self.init(unchecked: delays, maxConsecutiveFailures: maxConsecutiveFailures)
    try validate()
  }

  private init(unchecked delays: [Double], maxConsecutiveFailures: Int) {
    self.delays = delays
    self.maxConsecutiveFailures = maxConsecutiveFailures
  }

  /// Checks every field and throws the first problem found.
  ///
  /// - Parameter path: where the policy sits in its file (e.g.
  ///   `.endpoints["imports.watch"].reconnect`); the error's `path` appends the key.
  /// - Throws: `APXError` with status `.invalidDefinition`.
  public func validate(path: String? = nil) throws(APXError) {
    if delays.isEmpty {
      throw APXError(
        .invalidDefinition, "reconnect delays must list at least one delay",
        hint: "Use seconds, e.g. [5, 10, 20, 30]; the last one repeats.", path: path.map { "\($0).delays" })
    }
    if let index = delays.firstIndex(where: { !($0.isFinite && $0 >= 0) }) {
      throw APXError(
        .invalidDefinition, "reconnect delay \(delays[index]) must be a finite number of seconds >= 0",
        hint: "Use seconds, e.g. [5, 10, 20, 30].", path: path.map { "\($0).delays[\(index)]" })
    }
    if !(0...Self.failuresLimit).contains(maxConsecutiveFailures) {
      throw APXError(
        .invalidDefinition,
        "reconnect max_failures must be between 0 and \(Self.failuresLimit), got \(maxConsecutiveFailures)",
        hint: "It counts failed reconnections in a row before falling back; 0 falls back at once.",
        path: path.map { "\($0).max_failures" })
    }
  }
}

/// What to do when an SSE connection has ended.
public enum SSEReconnectDecision: Sendable, Hashable {
  /// Wait this many seconds, then reconnect (sending `Last-Event-ID`).
  case reconnect(after: Double)
  /// Stop reconnecting: this many reconnections in a row failed.
  case fallBack(consecutiveFailures: Int)
}

/// The reconnection state of one SSE stream: which delay comes next, honouring
/// the server's `retry:` field, and when to fall back. Clock-free: the runtime
/// sleeps for the returned delays.
///
/// Call `eventReceived()` for each event (it proves the connection works) and
/// `connectionEnded()` each time a connection closes or fails to open.
public struct SSEReconnectSchedule: Sendable, Hashable {
  /// The policy the delays come from.
  public let policy: SSEReconnectPolicy
  /// The reconnection time the server set with `retry:`, in seconds, capped
  /// by `serverRetryCeiling`; when set, it replaces the policy's delays.
  public private(set) var serverRetry: Double?
  /// Reconnections made since the last event was received.
  public private(set) var consecutiveFailures = 0
  /// Whether an event arrived since the last reconnection began.
  private var sawEventSinceReconnect = true

  /// A schedule for a stream that has just connected for the first time.
  public init(policy: SSEReconnectPolicy) {
    self.policy = policy
  }

  /// The longest reconnection delay a server's `retry:` may ask for, in
  /// seconds, unless the policy's own delays are longer (`serverRetryCeiling`).
  public static let serverRetryLimit: Double = 300

  /// The longest delay `setServerRetry` keeps: `serverRetryLimit`, or the
  /// policy's longest delay if that is longer: an endpoint that waits long
  /// between reconnections lets its server ask for as long.
  public var serverRetryCeiling: Double {
    let longest = policy.delays.lazy.map(RetryPolicy.sanitized).max() ?? 0
    return max(Self.serverRetryLimit, longest)
  }

  /// The shortest reconnection delay a server's `retry:` may ask for, in seconds:
  /// `retry: 0` would otherwise reconnect as fast as connections open.
  public static let serverRetryFloor: Double = 0.25

  /// Uses the server's `retry:` value (milliseconds; `SSEParser.retry`) as the
  /// delay for every later reconnection, at least `serverRetryFloor` and at most
  /// `serverRetryCeiling` (`retry: 999999999999` would otherwise wait for years).
  /// - Returns: true when the value was below the floor and raised to it.
  @discardableResult
  public mutating func setServerRetry(milliseconds: Int) -> Bool {
    // Int to Double cannot overflow (Int.max ms is about 9.2e15 s), so cap after converting.
    let asked = Double(max(milliseconds, 0)) / 1000
    serverRetry = min(max(asked, Self.serverRetryFloor), serverRetryCeiling)
    return asked < Self.serverRetryFloor
  }

  /// An event arrived: the connection works, so the failure count restarts.
  public mutating func eventReceived() {
    sawEventSinceReconnect = true
    consecutiveFailures = 0
  }

  /// The connection ended (closed, dropped, or failed to open). A reconnection
  /// that delivered no event counts as failed; once `maxConsecutiveFailures`
  /// reconnections in a row have failed, the answer is `.fallBack`. The first
  /// connection ending (even without any event) is not itself a failure, so
  /// with the standard policy the waits are 5, 10, 20 s, then fall back.
  public mutating func connectionEnded() -> SSEReconnectDecision {
    if !sawEventSinceReconnect { consecutiveFailures += 1 }
    sawEventSinceReconnect = false
    if consecutiveFailures >= policy.maxConsecutiveFailures {
      return .fallBack(consecutiveFailures: consecutiveFailures)
    }
    return .reconnect(after: nextDelay())
  }

  /// The delay for the reconnection about to be made.
  private func nextDelay() -> Double {
    if let serverRetry { return serverRetry }
    guard let last = policy.delays.last else { return 0 }
    let index = consecutiveFailures
    let delay = index < policy.delays.count ? policy.delays[index] : last
    return RetryPolicy.sanitized(delay)
  }
}
