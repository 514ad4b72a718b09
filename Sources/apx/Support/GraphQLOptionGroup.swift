import APXCore
import APXGraphQL
import APXRuntime
import ArgumentParser

/// `apx call`'s GraphQL options: `--graphql` makes an HTTP URL a GraphQL call; the others apply
/// to any GraphQL call and are refused (exit 2) on a call of any other kind.
struct GraphQLOptionGroup: ParsableArguments {
  @Option(
    name: .customLong("graphql"),
    help: ArgumentHelp(
      "URL: send this GraphQL document (text, or @file.graphql) as a GraphQL POST; items are its variables.",
      valueName: "DOCUMENT"))
  var document: String?

  @Option(
    name: .customLong("operation"),
    help: ArgumentHelp("GraphQL: the operation to run when the document holds several.", valueName: "NAME"))
  var operation: String?

  @Flag(
    name: .customLong("allow-partial"),
    help: ArgumentHelp("GraphQL: accept data that came with errors (the errors go to stderr; exit 0, not 12)."))
  var allowPartial = false

  @Flag(
    name: .customLong("raw-response"),
    help: ArgumentHelp("GraphQL: print the whole answer (data, errors, extensions) rather than its data."))
  var rawResponse = false

  @Option(
    name: .customLong("graphql-transport"),
    help: ArgumentHelp(
      "GraphQL subscription: carry it over ws (graphql-transport-ws, the default) or sse (GraphQL over SSE).",
      valueName: "ws|sse"))
  var transport: String?

  @Option(
    name: .customLong("max-document-size"),
    help: ArgumentHelp(
      "GraphQL: the largest document parsed, in bytes (default 1048576; at most 268435456).", valueName: "BYTES"))
  var maxDocumentSize: Int?

  /// Refuses a `--max-document-size` outside `GraphQLDocument.maxSizeRange`.
  func checkDocumentSize() throws(APXError) {
    guard let maxDocumentSize, !GraphQLDocument.maxSizeRange.contains(maxDocumentSize) else { return }
    throw APXError(
      .usage,
      "--max-document-size \(maxDocumentSize): give a size from 1 to \(GraphQLDocument.maxSizeRange.upperBound) bytes",
      hint: "the default is \(GraphQLDocument.defaultMaxSize) bytes")
  }

  /// The document `--graphql` gives: its text, or the file's after `@`.
  func documentText() throws(APXError) -> String? {
    guard let document else { return nil }
    guard document.hasPrefix("@") else { return document }
    let path = String(document.dropFirst())
    guard !path.isEmpty else {
      throw APXError(.usage, "--graphql @ needs a file name", hint: "write --graphql @query.graphql")
    }
    let bytes = try FileBytes.read(path)
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw APXError(.usage, "--graphql \(document): the file is not UTF-8 text", file: path)
    }
    return text
  }

  /// Puts the flags into a GraphQL endpoint's options, or refuses them on any other kind.
  func apply(to endpoint: inout Endpoint, target: String) throws(APXError) {
    try checkDocumentSize()
    let given: [(Bool, CallFlag)] = [
      (document != nil, .graphql), (operation != nil, .operation), (allowPartial, .allowPartial),
      (rawResponse, .rawResponse), (transport != nil, .graphqlTransport), (maxDocumentSize != nil, .maxDocumentSize),
    ]
    if let flag = given.first(where: { $0.0 && !endpoint.kind.takes($0.1) })?.1 {
      throw APXError(
        .usage, endpoint.kind.refused(flag, target: target),
        hint: flag == .graphql
          ? "give --graphql with an http:// or https:// URL"
          : "call a GraphQL endpoint (--graphql DOCUMENT), or drop \(flag.rawValue)")
    }
    guard case .graphql(let route, var options) = endpoint.options else { return }
    if let operation { options.operationName = operation }
    if let maxDocumentSize { options.maxDocumentSize = maxDocumentSize }
    if allowPartial { options.allowPartial = true }
    if rawResponse { options.rawResponse = true }
    if let transport {
      guard let chosen = GraphQLStreamTransport(rawValue: transport.lowercased()) else {
        throw APXError(
          .usage, "--graphql-transport \(transport): a subscription goes over ws or sse",
          hint: "--graphql-transport ws (graphql-transport-ws, the default) or --graphql-transport sse")
      }
      options.transport = chosen
    }
    endpoint.options = .graphql(route, options)
  }
}
