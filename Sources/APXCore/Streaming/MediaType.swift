/// The media types that decide how a response body is read: as an event stream, as one
/// JSON value per line, or as a body.
public enum MediaType {
  /// Server-sent events.
  public static let eventStream = "text/event-stream"

  /// NDJSON and JSON Lines under the names servers use for them.
  public static let lineStreams: Set<String> = [
    "application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines",
    "application/jsonlines",
  ]

  /// The type of a `Content-Type` value without its parameters, in lower case
  /// (`Text/Event-Stream; charset=utf-8` -> `text/event-stream`); "" for none.
  public static func essence(_ contentType: String?) -> String {
    guard let contentType else { return "" }
    let type = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    var trimmed = type
    while trimmed.first == " " || trimmed.first == "\t" { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " || trimmed.last == "\t" { trimmed = trimmed.dropLast() }
    return trimmed.lowercased()
  }

  /// Whether `essence` (see `essence(_:)`) is one JSON value per line.
  public static func isLineStream(_ essence: String) -> Bool { lineStreams.contains(essence) }
}
