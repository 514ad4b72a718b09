public import APXCore

/// One call as the user asked for it, after the CLI (or a recipe) has parsed
/// arguments and read files: the input to `Executor.call`.
public struct CallRequest: Sendable {
  public var api: APIDefinition
  public var endpoint: Endpoint
  /// The resolved base URL (environment, `--base-url` or the demo backend).
  public var baseURL: String
  /// The environment name in force (for token storage).
  public var environmentName: String
  public var values: [(name: String, value: BoundValue)]
  public var data: RequestBuilder.DataBody?
  public var headers: [HeaderField]
  public var timeout: Double?
  /// Stop a stream after this many items.
  public var maxEvents: Int?
  /// More event types that stop an event stream, beside an SSE endpoint's own (`--until-event`):
  /// the call's, so that a REST call whose answer is an event stream can be stopped too.
  public var untilEvent: [String] = []
  /// `--retry N` / `--no-retry` (1 attempt).
  public var maxAttemptsOverride: Int?
  /// The user typed the URL (`apx call URL`): messages speak of the URL, not of the
  /// registry's environments or `--base-url`.
  public var targetIsURL = false
  /// Sent to this absolute URL instead of the one built from the base URL, path and
  /// query parameters (a next-page link).
  public var url: String?

  public init(
    api: APIDefinition, endpoint: Endpoint, baseURL: String, environmentName: String,
    values: [(name: String, value: BoundValue)] = [], data: RequestBuilder.DataBody? = nil, headers: [HeaderField] = [],
    timeout: Double? = nil, maxEvents: Int? = nil, maxAttemptsOverride: Int? = nil
  ) {
    self.api = api
    self.endpoint = endpoint
    self.baseURL = baseURL
    self.environmentName = environmentName
    self.values = values
    self.data = data
    self.headers = headers
    self.timeout = timeout
    self.maxEvents = maxEvents
    self.maxAttemptsOverride = maxAttemptsOverride
  }
}

/// What a finished call produced, for recipes and exit codes.
public struct CallOutcome: Sendable {
  public var status: Int?
  public var headers: [HeaderField]
  /// Attempts made (1 when the first one succeeded; SSE: connections).
  public var attempts: Int
  public init(status: Int? = nil, headers: [HeaderField] = [], attempts: Int = 1) {
    self.status = status
    self.headers = headers
    self.attempts = attempts
  }
}
