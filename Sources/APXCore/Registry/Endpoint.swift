/// The protocol an endpoint speaks.
public enum EndpointKind: String, Sendable, Hashable, CaseIterable {
  case rest, sse, grpc, jsonrpc, websocket, graphql
}

/// One callable endpoint of an API.
public struct Endpoint: Sendable {
  /// The name after `API.`, e.g. `imports.create`.
  public var name: String
  /// The protocol, with the options (and, for HTTP-borne kinds, the route) only that protocol has.
  public var options: EndpointOptions
  /// The protocol spoken (`options` says it with its options).
  public var kind: EndpointKind { options.kind }
  public var description: String?
  /// The HTTP method: the route's, and POST for gRPC, whose calls are HTTP/2 POSTs.
  public var method: String { options.route.method }
  /// The path template with `{name}` placeholders, relative to the base URL: the route's, and
  /// `/package.Service/Method` for gRPC.
  public var path: String { options.route.path }
  /// Parameters in file order.
  public var params: [Param]
  public var headers: [HeaderField]
  /// Statuses that count as success; nil means any 2xx.
  public var expectStatus: [Int]?
  /// How the body is encoded when params go `in: body`/`form`/`multipart`.
  public var bodyEncoding: BodyEncoding?
  /// An example body (a template built from the API's schema by `apx import`), shown by `describe`.
  public var bodyExample: JSONValue?
  /// A JSON Schema of the JSON request body (`apx mock` checks requests against it).
  public var bodySchema: JSONValue?
  /// The answers the endpoint declares (`apx mock` serves them), in declaration order.
  public var responses: [EndpointResponse] = []
  /// Overrides the API's auth; `.none` switches auth off for this endpoint.
  public var auth: AuthConfig?
  /// Overrides fields of the API's retry policy.
  public var retry: RetryConfig?
  /// POST/PATCH may be retried when true.
  public var idempotent: Bool
  /// Generate one Idempotency-Key per call and send it on every attempt.
  public var idempotencyKey: Bool
  /// Per-call timeout in seconds.
  public var timeout: Double?
  /// How `--all` follows this endpoint's pages: its declared `pagination`, else, for REST,
  /// `Link: rel="next"` headers (`Pagination.undeclared`); nil when it has no pages to follow.
  public var pagesToFollow: Pagination? {
    pagination ?? (kind.capabilities.followsLinkHeaders ? .undeclared : nil)
  }
  /// Where in the file this endpoint starts.
  public var location: SourceLocation?

  public init(
    name: String, options: EndpointOptions, description: String? = nil, params: [Param] = [],
    headers: [HeaderField] = [], expectStatus: [Int]? = nil, bodyEncoding: BodyEncoding? = nil,
    auth: AuthConfig? = nil, retry: RetryConfig? = nil, idempotent: Bool = false, idempotencyKey: Bool = false,
    timeout: Double? = nil, location: SourceLocation? = nil
  ) {
    self.name = name
    self.options = options
    self.description = description
    self.params = params
    self.headers = headers
    self.expectStatus = expectStatus
    self.bodyEncoding = bodyEncoding
    self.auth = auth
    self.retry = retry
    self.idempotent = idempotent
    self.idempotencyKey = idempotencyKey
    self.timeout = timeout
    self.location = location
  }

  /// The parameter with this name.
  public func param(named name: String) -> Param? { params.first { $0.name == name } }

  /// Parameters the user must bind.
  public var requiredParams: [Param] { params.filter { $0.required && $0.defaultValue == nil } }
}

/// What a `kind: "jsonrpc"` endpoint calls: JSON-RPC 2.0 over HTTP (`method`
/// stays the HTTP method, POST by default).
public struct JSONRPCOptions: Sendable, Hashable {
  /// How the body parameters travel as `params`.
  public enum ParamsBy: String, Sendable, Hashable, CaseIterable {
    /// An object of the parameters by name (the default).
    case name
    /// An array of the parameters in declaration order.
    case position
  }

  /// The JSON-RPC method (registry `rpc_method`).
  public var rpcMethod: String
  /// Registry `params_by`.
  public var paramsBy: ParamsBy
  /// A notification: sent without an id, no answer expected (registry `notification`).
  public var notification: Bool

  public init(rpcMethod: String, paramsBy: ParamsBy = .name, notification: Bool = false) {
    self.rpcMethod = rpcMethod
    self.paramsBy = paramsBy
    self.notification = notification
  }
}

/// How a REST body is built from the endpoint's body parameters.
public enum BodyEncoding: String, Sendable, Hashable, CaseIterable {
  /// A JSON object of the body params (or `-d`).
  case json
  /// `application/x-www-form-urlencoded`.
  case form
  /// `multipart/form-data`; file params become streamed file parts.
  case multipart
  /// One file param sent as the whole body with its content type.
  case raw
}

/// Server-sent-events options of an `sse` endpoint.
public struct SSEOptions: Sendable, Hashable {
  /// Stop (successfully) after an event of one of these types.
  public var untilEvent: [String]
  /// Stop with `ExitStatus.remoteFailure` after an event of one of these types.
  public var failOnEvent: [String]
  public var reconnect: ReconnectConfig
  public var fallback: PollFallback?
  public var progress: ProgressFields?

  public init(
    untilEvent: [String] = [], failOnEvent: [String] = [], reconnect: ReconnectConfig = .init(),
    fallback: PollFallback? = nil, progress: ProgressFields? = nil
  ) {
    self.untilEvent = untilEvent
    self.failOnEvent = failOnEvent
    self.reconnect = reconnect
    self.fallback = fallback
    self.progress = progress
  }
}

/// When and how often an SSE stream reconnects.
public struct ReconnectConfig: Sendable, Hashable {
  /// Waits in seconds before successive reconnects; the last one repeats.
  public var delays: [Double]
  /// Consecutive failures before falling back to polling (or giving up).
  public var maxFailures: Int

  public init(delays: [Double] = [5, 10, 20, 30], maxFailures: Int = 3) {
    self.delays = delays
    self.maxFailures = maxFailures
  }

  /// The most `--reconnect-delay` takes, in seconds.
  public static let delayRange: ClosedRange<Double> = 0...3600

  /// The waits of a backoff that starts at `first` seconds and doubles, up to 30 s (or `first`
  /// when it is longer): `--reconnect-delay 1` waits 1, 2, 4, 8, 16, then 30 s.
  public static func backoff(from first: Double) -> [Double] {
    let cap = max(30, first)
    return (0..<6).map { min(first * Double(1 << $0), cap) } + [cap]
  }
}

/// Poll another endpoint when a stream keeps failing.
public struct PollFallback: Sendable, Hashable {
  /// The endpoint to poll, `ENDPOINT` of the same API or `API.ENDPOINT`.
  public var poll: String
  /// Seconds between polls.
  public var interval: Double
  /// A jq-style path into each poll result.
  public var until: String
  /// Stop when the value at `until` equals one of these.
  public var equals: [JSONValue]
  /// Values at `until` that mean failure (exit `remoteFailure`).
  public var failWhen: [JSONValue]

  public init(poll: String, interval: Double = 10, until: String, equals: [JSONValue], failWhen: [JSONValue] = []) {
    self.poll = poll
    self.interval = interval
    self.until = until
    self.equals = equals
    self.failWhen = failWhen
  }
}

/// Where progress lives in a stream's items (jq-style paths into SSE event data or gRPC messages).
public struct ProgressFields: Sendable, Hashable {
  public var fraction: String?
  public var done: String?
  public var total: String?

  public init(fraction: String? = nil, done: String? = nil, total: String? = nil) {
    self.fraction = fraction
    self.done = done
    self.total = total
  }
}

/// gRPC options of a `grpc` endpoint.
public struct GRPCOptions: Sendable, Hashable {
  /// Fully qualified service name, e.g. `classnotes.v1.ClassNotesAPI`.
  public var service: String
  public var method: String
  public var schema: SchemaSource
  /// Status codes (names like `UNAVAILABLE`) the retry policy retries.
  public var retryableCodes: [String]?
  /// Where progress lives in each response message (jq-style paths into its JSON), as for SSE.
  public var progress: ProgressFields?
  /// How answers come in pages (a page token in the request and the response).
  public var pagination: Pagination?

  public init(
    service: String, method: String, schema: SchemaSource, retryableCodes: [String]? = nil,
    progress: ProgressFields? = nil, pagination: Pagination? = nil
  ) {
    self.service = service
    self.method = method
    self.schema = schema
    self.retryableCodes = retryableCodes
    self.progress = progress
    self.pagination = pagination
  }
}

/// Where a gRPC endpoint's message types come from.
public enum SchemaSource: Sendable, Hashable {
  /// Ask the server (grpc.reflection.v1, falling back to v1alpha).
  case reflection
  /// A FileDescriptorSet file, resolved against the registry file's folder.
  case protoset(path: String)
  /// .proto files compiled with `protoc`, with import paths.
  case protoFiles(files: [String], importPaths: [String])
}

extension EndpointKind {
  /// The protocol's name as people write it: "REST", "JSON-RPC", "gRPC".
  public var displayName: String { capabilities.displayName }

  /// The kind with its article, as a sentence names it: "a REST", "an SSE".
  public var withArticle: String { capabilities.article + " " + displayName }

  /// Every kind's name in one phrase: "REST, SSE, gRPC, JSON-RPC, WebSocket and GraphQL".
  public static var allNamed: String {
    let names = allCases.map(\.displayName)
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
}
