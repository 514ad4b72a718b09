import APXCore

/// The human message a failure event or a failed poll result carries, for stderr.
enum SSEFailureMessage {
  /// `.message`, `.error.message`, `.error` (a string), `.detail`, or the
  /// data itself when it is a string; nil when none of these holds text.
  static func text(in data: JSONValue) -> String? {
    if case .string(let text) = data, !text.isEmpty { return text }
    if let text = data["message"]?.stringValue, !text.isEmpty { return text }
    if let error = data["error"] {
      if let text = error.stringValue, !text.isEmpty { return text }
      if let text = error["message"]?.stringValue, !text.isEmpty { return text }
    }
    if let text = data["detail"]?.stringValue, !text.isEmpty { return text }
    return nil
  }
}
