/// Every failure apx reports: what failed (`message`), why (`cause`), what to
/// do next (`hint`), where (`file`, `location`, `path`), and the exit status.
///
/// The message and hint must never contain a secret; callers mask values with
/// `SecretMask` before building one.
public struct APXError: Error, Sendable, CustomStringConvertible {
  public var status: ExitStatus
  public var message: String
  public var hint: String?
  public var file: String?
  public var location: SourceLocation?
  /// A jq-style path into the file's JSON, e.g. `.endpoints["imports.create"].method`.
  public var path: String?
  /// A lower-level explanation (the system error, the server's body).
  public var cause: String?

  public init(
    _ status: ExitStatus, _ message: String, hint: String? = nil, file: String? = nil,
    location: SourceLocation? = nil, path: String? = nil, cause: String? = nil
  ) {
    self.status = status
    self.message = message
    self.hint = hint
    self.file = file
    self.location = location
    self.path = path
    self.cause = cause
  }

  /// `file:line:column: message (at path)`, then cause and hint on their own lines.
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
    if let hint, !hint.isEmpty { lines.append("  hint: \(hint)") }
    return lines.joined(separator: "\n")
  }
}

/// Several errors found at once (a registry or recipe with more than one problem).
public struct APXErrors: Error, Sendable, CustomStringConvertible {
  public var errors: [APXError]
  public init(_ errors: [APXError]) { self.errors = errors }
  public var status: ExitStatus { errors.first?.status ?? .internalFailure }
  public var description: String { errors.map(\.description).joined(separator: "\n") }
}
