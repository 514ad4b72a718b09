/// Every failure apx reports: what failed (`message`), why (`cause`), what to
/// do next (`hint`), where (`file`, `location`, `path`), and the exit status.
///
/// The message and hint must never contain a secret; callers mask values with
/// `SecretMask` before building one.
///
/// The status is the domain's verdict (`ExitStatus`); only the `apx` target
/// turns it into a process exit number. A wrapped lower-level error stays in
/// `underlying`, so code that must tell failures apart asks it, not `cause`; code that
/// decides on one of apx's own failures switches on `reason`, never on the text.
public struct APXError: Error, Sendable, CustomStringConvertible {
  public var status: ExitStatus
  /// What kind of failure this is, for code that decides on it; never shown.
  public var reason: Reason
  public var message: String
  /// What to do next.
  public var hint: String?
  /// Why apx stopped trying ("not retried: ..."), shown after the hint; kept apart so that code
  /// that rewrites the advice for its context keeps the retry layer's verdict.
  public var retryVerdict: String?
  public var file: String?
  public var location: SourceLocation?
  /// A jq-style path into the file's JSON, e.g. `.endpoints["imports.create"].method`.
  public var path: String?
  /// A lower-level explanation (the system error, the server's body), as the user reads it.
  public var cause: String?
  /// The lower-level error this one wraps (a NIO, AsyncHTTPClient, gRPC or file-system
  /// error), kept as it was thrown for code that decides on the kind of failure. Never
  /// printed: its text may hold what `cause` masks.
  public var underlying: (any Error & Sendable)?
  /// The body of the server's answer this failure reports (an unexpected HTTP status), with
  /// its secrets masked: the command prints it on stdout as it prints any answer (as curl, xh
  /// and `gh api` do), and keeps only the status line on stderr.
  public var answerBody: [UInt8]?

  /// - Parameters:
  ///   - cause: the text shown as `cause:`; nil shows `underlying`'s description (pass a
  ///     masked text when that description may hold a secret).
  ///   - underlying: the lower-level error being wrapped.
  ///   - reason: the kind of failure, for code that decides on it.
  public init(
    _ status: ExitStatus, _ message: String, hint: String? = nil, file: String? = nil,
    location: SourceLocation? = nil, path: String? = nil, cause: String? = nil,
    underlying: (any Error & Sendable)? = nil, reason: Reason = .unclassified
  ) {
    self.status = status
    self.reason = reason
    self.message = message
    self.hint = hint
    self.file = file
    self.location = location
    self.path = path
    self.cause = cause ?? underlying.map { String(describing: $0) }
    self.underlying = underlying
  }

  /// `file:line:column: message (at path)`, then cause and hint on their own lines, with
  /// terminal control characters shown as `\u{1B}` (`escapingTerminalControls()`): a message,
  /// cause or hint may quote what a server sent (a reason phrase, a gRPC status message, an
  /// error body), and this is the text apx writes to stderr.
  public var description: String {
    var head = ""
    if let file {
      head += file
      if let location { head += ":\(location.line):\(location.column)" }
      head += ": "
    }
    head += "error: " + message
    if let path { head += " (at \(path))" }
    var lines = [head]
    if let cause, !cause.isEmpty { lines.append("  cause: \(cause)") }
    let advice = [hint, retryVerdict].compactMap { $0?.isEmpty == false ? $0 : nil }
    if !advice.isEmpty { lines.append("  hint: " + advice.joined(separator: "; ")) }
    let text: String = lines.joined(separator: "\n")
    return text.escapingTerminalControls()
  }
}

/// Several errors found at once (a registry or recipe with more than one problem).
public struct APXErrors: Error, Sendable, CustomStringConvertible {
  public var errors: [APXError]
  public init(_ errors: [APXError]) { self.errors = errors }
  public var status: ExitStatus { errors.first?.status ?? .internalFailure }
  public var description: String { errors.map(\.description).joined(separator: "\n") }
}
