/// What a `kind: "graphql"` endpoint sends: a GraphQL document POSTed as
/// `{"query", "variables", "operationName"}` (GraphQL over HTTP); its params are the variables.
public struct GraphQLOptions: Sendable, Hashable {
  /// The document's text (a registry's `query`, inline or read from `@file`).
  public var document: String
  /// The operation to run when the document holds several (`operation_name`, `--operation`).
  public var operationName: String?
  /// Print data with errors and exit 0 (`--allow-partial`): a partial answer is accepted.
  public var allowPartial: Bool
  /// Print the whole answer (`data`, `errors`, `extensions`) rather than `data` (`--raw-response`).
  public var rawResponse: Bool

  public init(document: String, operationName: String? = nil, allowPartial: Bool = false, rawResponse: Bool = false) {
    self.document = document
    self.operationName = operationName
    self.allowPartial = allowPartial
    self.rawResponse = rawResponse
  }
}
