/// Options of a `kind: "graphql"` endpoint (and of an ad-hoc `apx call URL --graphql` call).
public struct GraphQLOptions: Sendable, Hashable {
  /// The document's text (a registry's `query`, inline or read from `@file`).
  public var document: String
  /// The operation to run when the document holds several (`operation_name`, `--operation`).
  public var operationName: String?
  /// Print data with errors and exit 0 (`--allow-partial`): a partial answer is accepted.
  public var allowPartial: Bool
  /// Print the whole answer (`data`, `errors`, `extensions`) rather than `data` (`--raw-response`).
  public var rawResponse: Bool
  /// How a subscription's events travel (`transport`, `--graphql-transport`); nil: WebSocket.
  public var transport: GraphQLStreamTransport?
  /// A subscription stops (successfully) after the first `data` this holds for (`--until`).
  public var until: MessageCondition?
  /// A subscription stops after this many `data` messages (`--max-messages`).
  public var maxMessages: Int?
  /// The largest WebSocket message a subscription over `ws` holds (`--max-message-size`);
  /// nil: `WebSocketOptions.defaultMaxMessageSize`.
  public var maxMessageSize: Int?
  /// The largest document parsed (`--max-document-size`); nil: `GraphQLDocument.defaultMaxSize`.
  public var maxDocumentSize: Int?
  /// `--reconnect-delay`, already put into `reconnect`: kept so that a query refuses it.
  public var reconnectDelay: Double?
  /// When a subscription whose connection drops reconnects (`reconnect`).
  public var reconnect: ReconnectConfig
  /// The operation is a subscription, so a call is a stream. Set by the runtime, which parses
  /// documents (APXCore does not), where it needs the shape before calling: recipes.
  public var subscription = false

  public init(
    document: String, operationName: String? = nil, allowPartial: Bool = false, rawResponse: Bool = false,
    transport: GraphQLStreamTransport? = nil, reconnect: ReconnectConfig = .init()
  ) {
    self.document = document
    self.operationName = operationName
    self.allowPartial = allowPartial
    self.rawResponse = rawResponse
    self.transport = transport
    self.reconnect = reconnect
  }

  /// Whether anything that only a subscription uses was given.
  public var hasStreamOptions: Bool {
    transport != nil || until != nil || maxMessages != nil || maxMessageSize != nil || reconnectDelay != nil
  }
}

/// What carries a GraphQL subscription.
public enum GraphQLStreamTransport: String, Sendable, Hashable, CaseIterable {
  /// WebSocket with the `graphql-transport-ws` protocol (the default).
  case ws
  /// GraphQL over Server-Sent Events, "distinct connections" mode: one POST per subscription.
  case sse
}
