/// One server-sent event, as dispatched by `SSEParser` when a blank line ends
/// an event block whose data buffer is not empty.
public struct SSEEvent: Sendable, Hashable {
  /// The last event ID in force when the event was dispatched (it persists
  /// across events until the server sends another `id:`); nil when no ID was
  /// ever set or an empty `id:` reset it.
  public var id: String?
  /// The event type: the block's `event:` value, or `"message"` when it has
  /// none or an empty one.
  public var event: String
  /// The block's `data:` lines joined with `"\n"` (no trailing newline).
  public var data: String
  /// The `retry:` value (milliseconds) sent in this event's own block, if any.
  /// The reconnection time in force is `SSEParser.retry`.
  public var retry: Int?

  /// Makes an event; the defaults match an event that carried only `data:`.
  public init(id: String? = nil, event: String = "message", data: String, retry: Int? = nil) {
    self.id = id
    self.event = event
    self.data = data
    self.retry = retry
  }
}
