/// Options of a `kind: "websocket"` endpoint (and of an ad-hoc `ws://` call).
public struct WebSocketOptions: Sendable, Hashable {
  /// Subprotocols offered in the handshake (`Sec-WebSocket-Protocol`), as templates.
  public var subprotocols: [String]
  /// Messages sent once the connection opens, in order, again after each reconnection: a string
  /// is sent as its text (a template), any other JSON value as its compact JSON text.
  public var send: [JSONValue]
  /// Stop (successfully) after the first message this holds for.
  public var until: MessageCondition?
  /// Stop after this many received messages.
  public var maxMessages: Int?
  /// Seconds between client pings; a ping unanswered by the next one ends the connection.
  public var pingInterval: Double?
  /// When a connection that drops before `until` or `maxMessages` is met reconnects.
  public var reconnect: ReconnectConfig
  /// Where progress lives in each message.
  public var progress: ProgressFields?
  /// The largest message apx accepts, in bytes (exit 9 past it).
  public var maxMessageSize: Int
  /// Each line of stdin is sent as one text message (ad-hoc calls with stdin not a terminal).
  public var sendStdinLines = false
  /// What the server sends, as `apx mock` plays it; calls do not read it.
  public var serverMessages: WebSocketServerMessages?

  /// The default largest message: 16 MiB, as for one SSE event.
  public static let defaultMaxMessageSize = 16 << 20

  public init(
    subprotocols: [String] = [], send: [JSONValue] = [], until: MessageCondition? = nil, maxMessages: Int? = nil,
    pingInterval: Double? = nil, reconnect: ReconnectConfig = .init(), progress: ProgressFields? = nil,
    maxMessageSize: Int = defaultMaxMessageSize
  ) {
    self.subprotocols = subprotocols
    self.send = send
    self.until = until
    self.maxMessages = maxMessages
    self.pingInterval = pingInterval
    self.reconnect = reconnect
    self.progress = progress
    self.maxMessageSize = maxMessageSize
  }
}

/// The messages a WebSocket endpoint's server sends (its registry key `server_messages`):
/// examples, and a JSON Schema of a message to generate more from. `apx mock` sends them.
public struct WebSocketServerMessages: Sendable, Hashable {
  /// Messages in the order sent: a string as its text, any other value as compact JSON.
  public var examples: [JSONValue]
  /// A JSON Schema of one message (`{"$ref": "#/schemas/NAME"}` refers to the API's `schemas`).
  public var schema: JSONValue?

  public init(examples: [JSONValue] = [], schema: JSONValue? = nil) {
    self.examples = examples
    self.schema = schema
  }
}

/// A test of one stream message: the value at a jq-style path equals a JSON value, or (as text)
/// matches a pattern.
public struct MessageCondition: Sendable, Hashable {
  /// What the value at `path` must satisfy.
  public enum Test: Sendable, Hashable {
    /// Equal as JSON (numbers by value).
    case equals(JSONValue)
    /// A string that `LinearRegex` finds the pattern in.
    case matches(String)
  }

  /// A jq-style path into the message, e.g. `.type`.
  public var path: String
  public var test: Test

  public init(path: String, test: Test) {
    self.path = path
    self.test = test
  }

  /// `PATH==VALUE` as `--until` takes it: VALUE is JSON when it parses as JSON, else a string.
  public init(parsing text: String) throws(APXError) {
    guard let range = text.firstRange(of: "=="), !text[..<range.lowerBound].isEmpty else {
      throw APXError(
        .usage, "--until \"\(text)\" is not PATH==VALUE",
        hint: "write e.g. --until '.type==complete' (VALUE is compared as JSON when it parses as JSON)")
    }
    let path = String(text[..<range.lowerBound])
    let valueText = String(text[range.upperBound...])
    do {
      _ = try JSONPath(parsing: path)
    } catch {
      throw APXError(
        .usage, "--until: \"\(path)\" is not a jq-style path", hint: "write it like .type or .job.status",
        cause: error.message)
    }
    let value = (try? JSONParser.parse(Array(valueText.utf8))) ?? .string(valueText)
    self.init(path: path, test: .equals(value))
  }

  /// Whether `message` satisfies the test (a missing path never does).
  public func holds(for message: JSONValue) -> Bool {
    guard let compiled = try? JSONPath(parsing: path), let found = try? compiled.selectValue(in: message) else {
      return false
    }
    switch test {
    case .equals(let expected): return Self.same(found, expected)
    case .matches(let pattern):
      guard case .string(let text) = found, let regex = try? LinearRegex(pattern) else { return false }
      return regex.matches(in: text)
    }
  }

  /// JSON equality with numbers compared by value (`1.0` equals `1`).
  public static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x == y || (Double(x) != nil && Double(x) == Double(y))
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && x.allSatisfy { member in y.contains { $0.key == member.key && same($0.value, member.value) } }
    default: return a == b
    }
  }
}
