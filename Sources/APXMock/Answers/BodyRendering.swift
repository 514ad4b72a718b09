import APXCore

/// Turns a chosen answer into bytes of its content type.
enum BodyRendering {
  /// JSON media types: `application/json`, `application/problem+json`, `text/json`.
  static func isJSON(_ type: String) -> Bool {
    let base = type.lowercased().split(separator: ";").first.map { $0.trimmingWhitespace } ?? ""
    return base == "application/json" || base.hasSuffix("+json") || base == "text/json"
  }

  /// The answer for `value` under `contentType`: JSON as JSON; a string under another type as
  /// its text; anything else as JSON (the only form the mock can write it in).
  static func answer(status: Int, value: JSONValue?, contentType: String?) -> MockAnswer {
    guard let value, let contentType else { return MockAnswer(status: status) }
    if !isJSON(contentType), case .string(let text) = value {
      return MockAnswer(status: status, headers: [("content-type", contentType)], body: .bytes(Array(text.utf8)))
    }
    return .json(status, value, contentType: isJSON(contentType) ? contentType : "application/json")
  }
}
