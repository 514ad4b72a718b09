import APXCore
import APXGraphQL

/// `apx call URL --graphql DOCUMENT [ITEM ...]`: a GraphQL endpoint made on the spot. Body
/// items (`id=1`, `count:=3`) are the variables, `=` items typed by the operation's declared
/// variable types (`Int`, `Float`, `Boolean`); `-d` gives them as one JSON object. The
/// document is parsed and its operation picked here, so a bad one is refused before any
/// connection is made.
enum AdHocGraphQL {
  static func make(
    method: String?, url: AdHocURL, items: [RequestItem], document: String, call: CallCommand,
    match: BaseURLMatch?
  ) throws -> AdHocEndpoint {
    if call.form {
      throw APXError(.usage, "--form builds form bodies; GraphQL variables are JSON", hint: "drop --form")
    }
    if let method, method != "POST" {
      throw APXError(
        .usage, "a GraphQL call is a POST (\(method) was given)", hint: "drop \(method): apx call URL --graphql ...")
    }
    if items.contains(where: { if case .filePart = $0 { true } else { false } }) {
      throw APXError(
        .usage, "GraphQL variables are JSON, not file parts (name@file)",
        hint: "send a file's text as a variable (name=@file) or its JSON (name:=@file)")
    }
    try call.graphQL.checkDocumentSize()
    let parsed = try GraphQLDocument(
      parsing: document, origin: "--graphql", maxSize: call.graphQL.maxDocumentSize ?? GraphQLDocument.defaultMaxSize)
    let operation = try parsed.operation(named: call.graphQL.operation)
    var made = try AdHocEndpoint.make(
      method: "POST", url: url, items: items, hasData: call.data != nil, form: false, match: match)
    // `n=2` for `$n: Int` goes as 2: the operation's declared types say what each item is.
    made.arguments = try operation.typing(made.arguments, origin: "--graphql")
    made.endpoint.headers.removeAll { $0.name.lowercased() == "accept" }
    made.endpoint.options = .graphql(
      made.endpoint.options.route, GraphQLOptions(document: document, operationName: call.graphQL.operation))
    return made
  }
}
