import HTTPTypes
import Hummingbird

/// The `Accept` check of the demo's `text/event-stream` routes: 406 Not Acceptable unless the
/// client asks for an event stream, so a client that forgets to fails against the demo as it
/// would against a strict server.
enum EventStreamNegotiation {
  /// Throws 406 when `request` does not accept `text/event-stream`.
  static func require(_ request: Request) throws {
    guard accepts(request.headers[.accept]) else {
      throw DemoError(
        status: .notAcceptable, code: "not_acceptable",
        message: "this route sends text/event-stream; send 'Accept: text/event-stream'")
    }
  }

  /// Whether an `Accept` header admits `text/event-stream` (itself, `text/*` or `*/*`, with a
  /// quality above 0). A missing header does not: an SSE client always sends one.
  static func accepts(_ accept: String?) -> Bool {
    guard let accept else { return false }
    return accept.split(separator: ",").contains { range in
      let parts = range.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
      guard let media = parts.first, ["text/event-stream", "text/*", "*/*"].contains(media) else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      return quality > 0
    }
  }
}
