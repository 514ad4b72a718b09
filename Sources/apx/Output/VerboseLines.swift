import APXCore
import APXRuntime

/// The `-v` lines of a call's request, response head and trailers, as curl
/// shows them (`> GET /path`, `< HTTP/1.1 200`), shared by `apx call` and `apx run`.
enum VerboseLines {
  /// The stderr text for `event`, or nil for events that have none; terminal control
  /// characters a server put in a header or trailer are shown as `\u{1B}`.
  static func text(for event: CallEvent) -> String? {
    lines(for: event)?.escapingTerminalControls()
  }

  private static func lines(for event: CallEvent) -> String? {
    switch event {
    case .proxy(let shown):
      return "* via proxy \(shown)\n"
    case .requestSent(let method, let url, let headers, let attempt):
      var text = "> \(method) \(url)" + (attempt > 1 ? "  (attempt \(attempt))" : "") + "\n"
      for h in headers { text += "> \(h.name): \(h.value)\n" }
      return text + ">\n"
    case .responseHead(let status, let version, let headers):
      var text = "< \(version) \(status)\n"
      for h in headers { text += "< \(h.name): \(h.value)\n" }
      return text + "<\n"
    case .trailers(let fields):
      return fields.map { "< (trailer) \($0.name): \($0.value)\n" }.joined()
    default:
      return nil
    }
  }
}
