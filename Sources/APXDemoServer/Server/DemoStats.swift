/// A snapshot of what the demo server has seen, for tests and benchmarks.
///
/// Served as JSON by `GET /_demo/stats` (keys are the property names below).
public struct DemoStats: Sendable, Codable, Equatable {
  /// Import jobs created (idempotent replays are not counted).
  public var importsCreated: Int = 0
  /// Import requests answered with an existing job because of a repeated `Idempotency-Key`.
  public var idempotentReplays: Int = 0
  /// Requests per route, keyed like `GET /api/v2/imports/{id}` (unknown paths: `GET NotFound`).
  public var requestsByRoute: [String: Int] = [:]
  /// Calls to `POST /oauth/token`, successful or not.
  public var tokenRequests: Int = 0
  /// Access tokens issued.
  public var tokensIssued: Int = 0
  /// Requests rejected because the bearer token was missing, unknown or expired.
  public var authFailures: Int = 0
  /// SSE connections opened on import streams (refused ones excluded).
  public var streamConnections: Int = 0
  /// Import progress connections refused (`refuse_stream`; `refuse` on the V1 WebSocket route).
  public var streamsRefused: Int = 0
  /// Import stream connections closed on purpose by `drop_every`.
  public var streamsDropped: Int = 0
  /// GIF views currently being processed.
  public var viewsInFlight: Int = 0
  /// The largest number of GIF views processed at the same time.
  public var maxViewsInFlight: Int = 0
  /// GIF views completed.
  public var views: Int = 0
  /// GIF shares recorded.
  public var shares: Int = 0
  /// Attempts per `key` on `GET /api/v2/flaky`.
  public var flakyAttempts: [String: Int] = [:]

  /// Creates an empty snapshot.
  public init() {}
}
