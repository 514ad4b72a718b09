public import APXCore

/// What one call of a recipe step produced, typed. Its fields follow the
/// endpoint's `EndpointResultShape`: `body` when the shape has one, the
/// stream's `events`/`last`/`count` when it is a stream. `json` is the one
/// encoder of the object later steps read as `${steps.ID…}`, that `--events`
/// prints and that the journal keeps.
public struct RecipeCallResult: Sendable, Hashable {
  /// The final answer's status (HTTP status; 200 for a gRPC or SSE call that ended normally).
  public var status: Int?
  /// The response headers (gRPC: initial metadata), names in lower case.
  public var headers: [HeaderField]
  /// The answer's body, when the shape has one (null for an empty body).
  public var body: JSONValue?
  /// The stream's items, when the shape is a stream.
  public var stream: Stream?
  /// The step's `capture` values, by name.
  public var captures: [JSONMember]

  /// A stream's items as a step result holds them.
  public struct Stream: Sendable, Hashable {
    /// Every item, when something reads `events` (else empty).
    public var events: [JSONValue]
    /// The last item.
    public var last: JSONValue?
    /// Items received (including those of an interrupted run being resumed).
    public var count: Int

    /// Makes a stream result.
    public init(events: [JSONValue], last: JSONValue?, count: Int) {
      self.events = events
      self.last = last
      self.count = count
    }
  }

  /// Makes a call result.
  public init(
    status: Int?, headers: [HeaderField], body: JSONValue?, stream: Stream?, captures: [JSONMember] = []
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.stream = stream
    self.captures = captures
  }

  /// The result object: `status`, `headers`, then `body`, then `events`/`last`/`count`, then captures.
  public var json: JSONValue {
    var members: [JSONMember] = [
      JSONMember("status", status.map(JSONValue.int) ?? .null),
      JSONMember("headers", .object(headers.map { JSONMember($0.name.lowercased(), .string($0.value)) })),
    ]
    if let body { members.append(JSONMember("body", body)) }
    if let stream {
      members.append(JSONMember("events", .array(stream.events)))
      members.append(JSONMember("last", stream.last ?? .null))
      members.append(JSONMember("count", .int(stream.count)))
    }
    return .object(members + captures)
  }
}

/// The results of steps (and loop items) that made no call.
public enum RecipeStepResult {
  /// A step or item whose `if` did not hold: `{"status": null, "skipped": true}`.
  public static let skipped = JSONValue.object([JSONMember("status", .null), JSONMember("skipped", .bool(true))])

  /// A step or item whose call failed: `{"status": null, "error": {"message": …}}`.
  public static func failed(_ message: String) -> JSONValue {
    .object([JSONMember("status", .null), JSONMember("error", .object([JSONMember("message", .string(message))]))])
  }
}
