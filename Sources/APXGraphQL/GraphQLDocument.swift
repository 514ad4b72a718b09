public import APXCore
import GraphQL

/// A GraphQL executable document, parsed by GraphQLSwift's parser before anything is sent:
/// its operations with their kinds and variables. A syntax error is a usage error that shows
/// the line, column and a caret under the place.
public struct GraphQLDocument: Sendable {
  /// One operation of the document.
  public struct Operation: Sendable, Hashable {
    /// `query`, `mutation` or `subscription`.
    public enum Kind: String, Sendable, Hashable {
      case query, mutation, subscription
    }
    /// Nil for an anonymous operation (allowed only when it is the document's one operation).
    public var name: String?
    public var kind: Kind
    /// The declared variables in order, with their types as written (`ID!`, `[String]`).
    public var variables: [Variable]
  }

  /// A declared variable: `$name: Type = default`.
  public struct Variable: Sendable, Hashable {
    public var name: String
    public var type: String
    public var hasDefault: Bool

    /// Whether the type is non-null (`T!`) without a default: the server needs a value.
    public var isRequired: Bool { type.hasSuffix("!") && !hasDefault }
  }

  /// The document's text, sent as `query`.
  public let text: String
  /// The operations in document order.
  public let operations: [Operation]

  /// The largest document parsed unless a call raises it (`--max-document-size`): real
  /// operations are kilobytes, and the parser holds about a hundred bytes per byte of text.
  public static let defaultMaxSize = 1 << 20
  /// The most `--max-document-size` may raise the bound to.
  public static let maxSizeRange = 1...(256 << 20)

  /// Parses `text`. `origin` names where it came from in messages (`--graphql`, a file, an endpoint).
  /// - Parameter maxSize: the largest text, in bytes, parsed; longer is a usage error.
  public init(parsing text: String, origin: String, maxSize: Int = defaultMaxSize) throws(APXError) {
    if text.utf8.count > maxSize {
      throw APXError(
        .usage,
        "\(origin): the GraphQL document is \(text.utf8.count) bytes, more than the \(maxSize) apx parses",
        hint: "raise the bound with --max-document-size BYTES (at most \(Self.maxSizeRange.upperBound))")
    }
    try GraphQLNesting.check(text, origin: origin)
    let document: Document
    do {
      document = try parse(source: text)
    } catch let error as GraphQLError {
      throw Self.syntaxError(error, text: text, origin: origin)
    } catch {
      throw APXError(.usage, "\(origin): the GraphQL document does not parse", cause: "\(error)")
    }
    var operations: [Operation] = []
    for definition in document.definitions {
      guard let operation = definition as? OperationDefinition else {
        if definition is FragmentDefinition { continue }
        throw APXError(
          .usage, "\(origin): the GraphQL document defines types, not operations",
          hint: "send a query, mutation or subscription; a schema file goes to --schema")
      }
      let kind = Operation.Kind(rawValue: operation.operation.rawValue) ?? .query
      let variables = operation.variableDefinitions.map { definition in
        Variable(
          name: definition.variable.name.value, type: print(ast: definition.type),
          hasDefault: definition.defaultValue != nil)
      }
      operations.append(Operation(name: operation.name?.value, kind: kind, variables: variables))
    }
    guard !operations.isEmpty else {
      throw APXError(
        .usage, "\(origin): the GraphQL document holds no operation",
        hint: "write one, e.g. '{ books { title } }' or 'query($id: ID!) { book(id: $id) { title } }'")
    }
    self.text = text
    self.operations = operations
  }

  /// The operation to run: the one named `name`, or the document's only one.
  public func operation(named name: String?) throws(APXError) -> Operation {
    let names = operations.map { $0.name ?? "(anonymous)" }.joined(separator: ", ")
    guard let name else {
      guard operations.count == 1 else {
        throw APXError(
          .usage, "the GraphQL document holds \(operations.count) operations (\(names)): which one?",
          hint: "pick one with --operation NAME (operation_name in a registry endpoint)")
      }
      return operations[0]
    }
    guard let found = operations.first(where: { $0.name == name }) else {
      throw APXError(
        .usage, "the GraphQL document has no operation named \"\(name)\"",
        hint: "its operations: \(names)"
          + (Suggestions.hint(for: name, in: operations.compactMap(\.name)).map { "; \($0)" } ?? ""))
    }
    return found
  }

  static func syntaxError(_ error: GraphQLError, text: String, origin: String) -> APXError {
    let location = error.locations.first
    let firstLine = error.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.message
    // GraphQLSwift's message reads "Syntax Error <source> (L:C) <description>".
    let description = firstLine.firstRange(of: ") ").map { String(firstLine[$0.upperBound...]) } ?? firstLine
    var caret: String?
    if let location {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      if location.line >= 1, location.line <= lines.count {
        let line = String(lines[location.line - 1])
        caret = "\n    " + line + "\n    " + String(repeating: " ", count: max(0, location.column - 1)) + "^"
      }
    }
    return APXError(
      .usage,
      "\(origin): GraphQL syntax error"
        + (location.map { " at line \($0.line), column \($0.column)" } ?? "") + ": \(description)",
      hint: "fix the document; nothing was sent",
      cause: caret)
  }
}
