/// What one kind of endpoint is and accepts: its name, what its calls give, which registry
/// keys its endpoints may have, which `apx call` flags its calls take, and whether `apx mock`'s
/// HTTP servers answer it.
///
/// `EndpointKind.capabilities` holds one row per kind. The loader's "applies only to" errors,
/// `apx call`'s flag checks, recipes' result shapes and the mock's served kinds all read it, so
/// adding a kind is adding one case and one row (see docs/architecture.md, "Adding a kind").
public struct KindCapabilities: Sendable {
  /// The kind's name as people write it: "REST", "JSON-RPC", "gRPC".
  public var displayName: String
  /// The article a sentence puts before the name: "an" SSE call, "a" REST call.
  public var article = "a"
  /// What a call gives a recipe step.
  public var resultShape: EndpointResultShape
  /// A call is one HTTP request that a dry run can show as method, URL, headers and body, and
  /// whose method says whether repeating it is safe (a gRPC call is a message on a channel).
  public var isHTTPRequest: Bool
  /// Several calls travel in one request (a JSON-RPC batch).
  public var batches: Bool
  /// With no parameters declared, any message field may be given (from the service's schema).
  public var fieldsFromSchema: Bool
  /// `apx mock`'s HTTP servers answer it (gRPC has a server of its own).
  public var servedOverHTTP: Bool
  /// The method and path an endpoint has when the registry gives none; nil for a kind without
  /// an HTTP route of its own (gRPC: its service and method name it).
  public var defaultRoute: HTTPRoute?
  /// The registry must give a `path` (a JSON-RPC or GraphQL server answers on `/` by default).
  public var requiresPath = true
  /// Where a parameter goes when the registry does not say.
  public var defaultParamLocation: ParamLocation = .query
  /// `--all` follows `Link: rel="next"` headers when no `pagination` is declared.
  public var followsLinkHeaders = false
  /// Top-level array items (`[]=...`) may build the request body.
  public var takesArrayBody = false
  /// Its endpoints may live under a `ws://` or `wss://` base URL.
  public var servedFromWebSocketURL = false
  /// `RegistryWriter` writes the method even when it is the default (a REST file says GET).
  public var writesDefaultMethod = false
  /// Registry keys an endpoint of this kind may have beyond `EndpointKind.sharedRegistryKeys`.
  public var registryKeys: Set<String>
  /// `apx call` flags a call of this kind takes, of those some kinds refuse (`CallFlag`).
  public var callFlags: Set<CallFlag>
}

extension EndpointKind {
  /// This kind's row of the capability table (built once: the loader asks it for every key).
  public var capabilities: KindCapabilities {
    switch self {
    case .rest: Self.restRow
    case .sse: Self.sseRow
    case .grpc: Self.grpcRow
    case .jsonrpc: Self.jsonrpcRow
    case .websocket: Self.websocketRow
    case .graphql: Self.graphqlRow
    }
  }

  private static let restRow = EndpointKind.rest.row
  private static let sseRow = EndpointKind.sse.row
  private static let grpcRow = EndpointKind.grpc.row
  private static let jsonrpcRow = EndpointKind.jsonrpc.row
  private static let websocketRow = EndpointKind.websocket.row
  private static let graphqlRow = EndpointKind.graphql.row

  /// The row, as the table is written.
  private var row: KindCapabilities {
    let events: Set<String> = ["until_event", "fail_on_event", "fallback", "reconnect", "progress"]
    let graphQLFlags: Set<CallFlag> = [
      .graphql, .operation, .allowPartial, .rawResponse, .graphqlTransport, .maxDocumentSize,
    ]
    switch self {
    case .rest:
      return KindCapabilities(
        displayName: "REST", resultShape: EndpointResultShape(body: .responseBytes, stream: false),
        isHTTPRequest: true, batches: false, fieldsFromSchema: false,
        servedOverHTTP: true, defaultRoute: HTTPRoute(), followsLinkHeaders: true, takesArrayBody: true,
        writesDefaultMethod: true,
        registryKeys: ["path", "body", "accepts", "pagination"],
        callFlags: [.http1Only, .include, .untilEvent, .continueDownload])
    case .sse:
      return KindCapabilities(
        displayName: "SSE", article: "an", resultShape: EndpointResultShape(body: nil, stream: true),
        isHTTPRequest: true, batches: false, fieldsFromSchema: false,
        servedOverHTTP: true, defaultRoute: HTTPRoute(), takesArrayBody: true,
        registryKeys: events.union(["path", "body", "accepts"]),
        callFlags: [.http1Only, .include, .untilEvent, .reconnectDelay])
    case .grpc:
      return KindCapabilities(
        displayName: "gRPC", resultShape: EndpointResultShape(body: .lastMessage, stream: true),
        isHTTPRequest: false, batches: false, fieldsFromSchema: true,
        servedOverHTTP: false, defaultRoute: nil, requiresPath: false, defaultParamLocation: .message,
        registryKeys: ["service", "schema", "retry_codes", "progress", "pagination"],
        callFlags: [.maxMessageSize, .authority, .emitDefaults])
    case .jsonrpc:
      return KindCapabilities(
        displayName: "JSON-RPC", resultShape: EndpointResultShape(body: .responseBytes, stream: false),
        isHTTPRequest: true, batches: true, fieldsFromSchema: false,
        servedOverHTTP: true, defaultRoute: HTTPRoute(method: "POST", path: "/"), requiresPath: false,
        defaultParamLocation: .body, registryKeys: ["path", "body", "rpc_method", "params_by", "notification"],
        callFlags: [.http1Only, .include])
    case .websocket:
      return KindCapabilities(
        displayName: "WebSocket", resultShape: EndpointResultShape(body: nil, stream: true),
        isHTTPRequest: true, batches: false, fieldsFromSchema: false,
        servedOverHTTP: true, defaultRoute: HTTPRoute(), servedFromWebSocketURL: true, writesDefaultMethod: true,
        registryKeys: [
          "path", "body", "reconnect", "progress", "subprotocols", "send", "until", "max_messages", "ping_interval",
          "server_messages",
        ],
        callFlags: [
          .http1Only, .include, .maxMessageSize, .reconnectDelay, .subprotocol, .maxMessages, .until,
        ])
    case .graphql:
      return KindCapabilities(
        displayName: "GraphQL", resultShape: EndpointResultShape(body: .responseBytes, stream: false),
        isHTTPRequest: true, batches: false, fieldsFromSchema: false,
        servedOverHTTP: true, defaultRoute: HTTPRoute(method: "POST", path: "/"), requiresPath: false,
        defaultParamLocation: .body,
        registryKeys: ["path", "body", "query", "operation_name", "transport", "reconnect"],
        callFlags: graphQLFlags.union([.http1Only, .include, .maxMessageSize, .reconnectDelay, .maxMessages, .until]))
    }
  }

  /// Registry keys every endpoint may have, whatever its kind.
  public static let sharedRegistryKeys: Set<String> = [
    "kind", "description", "method", "params", "headers", "expect_status", "body_example", "body_schema",
    "responses", "auth", "retry", "idempotent", "idempotency_key", "timeout",
  ]

  /// Every key some kind's endpoint may have, for the unknown-key check.
  public static var allRegistryKeys: Set<String> {
    allCases.reduce(sharedRegistryKeys) { $0.union($1.capabilities.registryKeys) }
  }

  /// Whether an endpoint of this kind may have the registry key `key`.
  public func accepts(registryKey key: String) -> Bool {
    Self.sharedRegistryKeys.contains(key) || capabilities.registryKeys.contains(key)
  }

  /// Whether a call of this kind takes `flag`.
  public func takes(_ flag: CallFlag) -> Bool { capabilities.callFlags.contains(flag) }

  /// The kinds that accept the registry key `key`, in declaration order.
  public static func accepting(registryKey key: String) -> [EndpointKind] {
    allCases.filter { $0.accepts(registryKey: key) }
  }

  /// The kinds whose calls take `flag`, in declaration order.
  public static func taking(_ flag: CallFlag) -> [EndpointKind] { allCases.filter { $0.takes(flag) } }

  /// Why `key` cannot be on an endpoint of this kind: the loader's "applies only to" message.
  public func misplaced(registryKey key: String) -> String {
    let owners = Self.accepting(registryKey: key)
    if owners.count == Self.allCases.count - 1 {
      return "\"\(key)\" does not apply to kind \"\(rawValue)\""
    }
    let quoted = owners.map { "\"\($0.rawValue)\"" }
    return "\"\(key)\" applies only to " + (owners.count == 1 ? "kind " : "kinds ") + Self.phrase(quoted)
  }

  /// Why a call of this kind refuses `flag`: "--authority applies to gRPC calls, and this is a
  /// REST call".
  public func refused(_ flag: CallFlag, target: String = "this") -> String {
    let owners = Self.taking(flag).map(\.displayName)
    return "\(flag.rawValue) applies to \(Self.phrase(owners)) calls, and \(target) is \(withArticle) call"
  }

  /// "a", "a and b", "a, b and c".
  static func phrase(_ words: [String]) -> String {
    guard let last = words.last else { return "" }
    return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " and " + last
  }
}

/// The `apx call` flags that only some kinds take; the capability table says which.
public enum CallFlag: String, Sendable, Hashable, CaseIterable {
  case http1Only = "--http1.1"
  case include = "-i"
  case untilEvent = "--until-event"
  case continueDownload = "--continue"
  case reconnectDelay = "--reconnect-delay"
  case maxMessageSize = "--max-message-size"
  case authority = "--authority"
  case emitDefaults = "--emit-defaults"
  case subprotocol = "--subprotocol"
  case maxMessages = "--max-messages"
  case until = "--until"
  case graphql = "--graphql"
  case operation = "--operation"
  case allowPartial = "--allow-partial"
  case rawResponse = "--raw-response"
  case graphqlTransport = "--graphql-transport"
  case maxDocumentSize = "--max-document-size"
}
