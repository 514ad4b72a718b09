/// Settings of one `apx mock` run.
public struct MockOptions: Sendable {
  /// Address to bind (127.0.0.1 unless widened).
  public var host: String
  /// The first API's port; 0 picks free ports. Further APIs take the ports after it.
  public var port: Int
  /// Seeds generated answers: the same seed gives the same answers.
  public var seed: UInt64
  /// Faults applied to every request.
  public var faults: MockFaults
  /// Events an SSE endpoint without examples streams.
  public var sseEvents: Int
  /// Keep created resources in memory (POST/PUT/PATCH/DELETE on collections).
  public var stateful: Bool
  /// Seconds the OAuth2 access tokens the mock issues stay good.
  public var tokenLifetime: Int
  /// The most one generated answer may take, about the bytes of its JSON: past it, the
  /// answer is a 500 naming the limit rather than a value its schema refuses.
  public var maxGeneratedSize: Int
  /// The default of `maxGeneratedSize`: 1 MiB.
  public static let defaultMaxGeneratedSize = 1 << 20

  public init(
    host: String = "127.0.0.1", port: Int = 0, seed: UInt64 = 0, faults: MockFaults = MockFaults(),
    sseEvents: Int = 10, stateful: Bool = false, tokenLifetime: Int = 3600,
    maxGeneratedSize: Int = defaultMaxGeneratedSize
  ) {
    self.host = host
    self.port = port
    self.seed = seed
    self.faults = faults
    self.sseEvents = sseEvents
    self.stateful = stateful
    self.tokenLifetime = tokenLifetime
    self.maxGeneratedSize = maxGeneratedSize
  }
}
