public import APXCore

/// One request and its answer, as an HTTP archive (HAR 1.2) entry holds them.
public struct HARExchange: Sendable, Hashable {
  /// The request method, upper case.
  public var method: String
  /// The URL's path, percent-decoded (`/api/v2/books/1`).
  public var path: String
  /// The query's name-value pairs in order, percent-decoded.
  public var query: [QueryPair]
  /// The request body as recorded (`postData.text`), or nil when there was none.
  public var requestBody: [UInt8]?
  /// The answer's status.
  public var status: Int
  /// The answer's headers, without those that described the recorded bytes on the wire
  /// (`Content-Length`, `Content-Encoding`, `Transfer-Encoding`, `Connection`); a HEAD answer
  /// whose body was not encoded keeps its `Content-Length`.
  public var headers: [HeaderField]
  /// The answer's body (`content.text`, base64-decoded when the archive says so).
  public var body: [UInt8]
  /// Where it was recorded: the archive's name and the entry's index (`api.har#3`).
  public var source: String
  /// For an event stream recorded with its timing (`_apx.events`): when each event arrived,
  /// in milliseconds after the answer's head. Empty when not recorded.
  public var eventTimes: [Double] = []
  /// For a gRPC call (`_apx.messages`): the answer's messages as JSON, nil for other exchanges.
  public var grpcMessages: [JSONValue]?
  /// For a gRPC call: its trailers (`_apx.trailers`), the status as `grpc-status` and `grpc-message`.
  public var grpcTrailers: [HeaderField] = []

  /// A query's name and value.
  public struct QueryPair: Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value (empty for `?flag`).
    public var value: String

    /// Makes a pair.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Makes an exchange.
  public init(
    method: String, path: String, query: [QueryPair], requestBody: [UInt8]? = nil, status: Int,
    headers: [HeaderField], body: [UInt8], source: String
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.requestBody = requestBody
    self.status = status
    self.headers = headers
    self.body = body
    self.source = source
  }

  /// The request line as a person reads it: `GET /path?a=1`.
  public var requestLine: String {
    method + " " + path + (query.isEmpty ? "" : "?" + query.map { $0.name + "=" + $0.value }.joined(separator: "&"))
  }
}
