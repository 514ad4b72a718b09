extension SSEEvent {
  /// The JSON object apx prints for this event: `{"id":…,"event":…,"data":…}`.
  ///
  /// `id` is null when absent. `data` is the parsed JSON value when the data is
  /// one valid JSON text (key order and number text preserved), otherwise the
  /// data as a string, so a plain-text event still prints as valid JSON.
  public var jsonValue: JSONValue {
    let dataValue: JSONValue
    if let parsed = try? JSONParser.parse(Array(data.utf8)) {
      dataValue = parsed
    } else {
      dataValue = .string(data)
    }
    return .object([
      JSONMember("id", id.map(JSONValue.string) ?? .null),
      JSONMember("event", .string(event)),
      JSONMember("data", dataValue),
    ])
  }
}
