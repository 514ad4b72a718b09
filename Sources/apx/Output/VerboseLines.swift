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

  /// With `-v`, what a `TokenManager` reports of its token requests, written to stderr as a
  /// call's own exchanges are, after a line that says what the exchange is for.
  /// With `--har`, they are recorded there too.
  static func tokenRequests(_ context: Context, verbose: Bool, har: HARLog? = nil) -> (@Sendable (CallEvent) -> Void)? {
    let record = har?.tokenRequests()
    guard verbose else { return record }
    return { event in
      record?(event)
      guard let text = text(for: event) else { return }
      if case .requestSent = event { context.stderr.write("* OAuth2 token request\n") }
      context.stderr.write(text)
      context.stderr.flush()
    }
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
    case .webSocketFrame(let sent, let opcode, let bytes, _):
      // The direction, opcode and size only: a message's content is output (or a secret).
      return "\(sent ? ">" : "<") [\(opcode.rawValue) frame, \(bytes) byte\(bytes == 1 ? "" : "s")]\n"
    default:
      return nil
    }
  }
}
