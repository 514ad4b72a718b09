public import APXCore

/// A GraphQL answer (`{"data", "errors", "extensions"}`), read as the GraphQL over HTTP
/// specification describes it, with each error's message, path and extensions.
public struct GraphQLAnswer: Sendable {
  /// One entry of `errors`.
  public struct Failure: Sendable, Hashable {
    public var message: String
    /// `path`: field names and list indexes, as `book.authors[0].name`; nil when absent.
    public var path: String?
    /// `locations` as `line:column`.
    public var locations: [String]
    public var extensions: JSONValue?

    /// One line for stderr: `message (at path; line:column) extensions`.
    public var line: String {
      var where_: [String] = []
      if let path { where_.append("at \(path)") }
      if !locations.isEmpty { where_.append("line:column " + locations.joined(separator: ", ")) }
      var text = message
      if !where_.isEmpty { text += " (" + where_.joined(separator: "; ") + ")" }
      if let extensions { text += " extensions: " + extensions.compactJSON }
      return text
    }
  }

  /// `data`: nil when absent or null.
  public var data: JSONValue?
  public var errors: [Failure]
  /// The whole answer as received.
  public var document: JSONValue

  /// Reads an answer; a body that is not a GraphQL answer is an `.expectation` failure (exit 9).
  public init(_ document: JSONValue) throws(APXError) {
    guard case .object(let members) = document else {
      throw Self.malformed("the answer is not a JSON object")
    }
    let dataMember = members.first { $0.key == "data" }
    let errorsMember = members.first { $0.key == "errors" }
    guard dataMember != nil || errorsMember != nil else {
      throw Self.malformed("the answer has neither \"data\" nor \"errors\"")
    }
    if let data = dataMember?.value, data != .null {
      guard case .object = data else { throw Self.malformed("\"data\" is not an object") }
      self.data = data
    }
    var errors: [Failure] = []
    if let value = errorsMember?.value, value != .null {
      guard case .array(let items) = value else { throw Self.malformed("\"errors\" is not an array") }
      for item in items {
        guard case .object(let fields) = item,
          case .string(let message)? = fields.first(where: { $0.key == "message" })?.value
        else { throw Self.malformed("an entry of \"errors\" has no \"message\" string") }
        errors.append(
          Failure(
            message: message, path: Self.path(fields.first { $0.key == "path" }?.value),
            locations: Self.locations(fields.first { $0.key == "locations" }?.value),
            extensions: fields.first { $0.key == "extensions" }?.value))
      }
    }
    self.errors = errors
    self.document = document
  }

  /// The failure for this answer's errors (exit 12), or nil when it has none.
  /// - Parameters:
  ///   - name: the call, for the message.
  ///   - mask: hides secrets in what the server sent (`SecretMask.mask`).
  public func failure(name: String, mask: (String) -> String) -> APXError? {
    guard !errors.isEmpty else { return nil }
    let count = errors.count == 1 ? "an error" : "\(errors.count) errors"
    let message =
      data == nil
      ? "\(name): the GraphQL answer holds \(count) and no data"
      : "\(name): the GraphQL answer is partial: data with \(count)"
    return APXError(
      .graphqlError, mask(message),
      hint: data == nil
        ? "the server refused or failed the operation; its errors are in the cause"
        : "the data is printed; --allow-partial accepts a partial answer (exit 0)",
      cause: mask(Self.listed(errors)))
  }

  /// The errors one per line; past the first 10, how many more (an introspection query refused
  /// field by field would otherwise fill the screen).
  public static func listed(_ errors: [Failure]) -> String {
    var lines = errors.prefix(10).map(\.line)
    if errors.count > 10 { lines.append("... and \(errors.count - 10) more") }
    return lines.joined(separator: "\n  ")
  }

  static func malformed(_ why: String) -> APXError {
    APXError(
      .expectation, "the server's answer is not a GraphQL answer: \(why)",
      hint: "check the URL: is it the GraphQL endpoint? (-o raw with --raw-response shows the answer)")
  }

  static func path(_ value: JSONValue?) -> String? {
    guard case .array(let steps)? = value, !steps.isEmpty else { return nil }
    var text = ""
    for step in steps {
      switch step {
      case .string(let key): text += text.isEmpty ? key : ".\(key)"
      case .number(let index): text += "[\(index)]"
      default: text += "[\(step.compactJSON)]"
      }
    }
    return text
  }

  static func locations(_ value: JSONValue?) -> [String] {
    guard case .array(let items)? = value else { return [] }
    return items.compactMap { item in
      guard case .object(let fields) = item,
        case .number(let line)? = fields.first(where: { $0.key == "line" })?.value,
        case .number(let column)? = fields.first(where: { $0.key == "column" })?.value
      else { return nil }
      return "\(line):\(column)"
    }
  }
}
