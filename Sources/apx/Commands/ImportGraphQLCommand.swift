import APXCore
import APXGraphQL
import APXImport
import APXRuntime
import ArgumentParser

/// `apx import graphql URL|FILE`.
struct ImportGraphQLCommand: ContextCommand {
  static let configuration = CommandConfiguration(
    commandName: "graphql",
    abstract:
      "Import a GraphQL server's root fields (introspection), or those of a schema file (SDL or introspection JSON).",
    discussion: """
      One "kind": "graphql" endpoint per root field, named by the field (NAME.book); a mutation or \
      subscription field whose name a query field has is prefixed (mutation.book). Each endpoint's document \
      selects the result to --depth levels: scalars and enums at the leaves, fields that need arguments left \
      out, a type already on the path cut. The field's arguments become params (their GraphQL types in the \
      descriptions). A URL's origin becomes the default environment and its path the endpoints' path. \
      Importing again writes the same bytes.
      """)

  @Argument(
    help: ArgumentHelp(
      "http(s)://HOST/PATH (introspection), or a .graphql SDL or introspection .json file.",
      valueName: "URL | FILE"))
  var target: String

  @OptionGroup var output: ImportOutputOptions

  @Option(
    name: .customLong("depth"),
    parsing: .unconditional,
    help: ArgumentHelp("Levels of the generated selection sets (1 to 10).", valueName: "N"))
  var depth: Int = 2

  @Option(
    name: [.customShort("H"), .customLong("header")],
    help: ArgumentHelp(
      "URL: a header for the introspection request, e.g. 'Authorization: Bearer TOKEN' (repeatable).",
      valueName: "NAME: VALUE"))
  var headers: [String] = []

  @OptionGroup(title: "Fetching") var fetch: FetchOptions

  func validate() throws {
    if !(1...10).contains(depth) { throw ValidationError("--depth must be 1 to 10") }
    let lower = target.lowercased()
    try fetch.refuse(unless: lower.hasPrefix("http://") || lower.hasPrefix("https://"), only: "an http(s) URL")
  }

  func run(in context: Context) async throws {
    let lower = target.lowercased()
    let schema: GraphQLSchemaSummary
    var baseURL: String?
    var path = "/graphql"
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
      let url = try AdHocURL(parsing: target)
      let fields = try headers.map { text throws(APXError) in
        guard let colon = text.firstIndex(of: ":") else {
          throw APXError(.usage, "-H \(text): a header is NAME: VALUE", hint: "e.g. -H 'Authorization: Bearer TOKEN'")
        }
        return HeaderField(
          String(text[..<colon]).trimmingWhitespace(), String(text[text.index(after: colon)...]).trimmingWhitespace())
      }
      fetch.warnIfInsecure(context)
      schema = try await GraphQLSchemaOptions.introspect(
        url: target, session: try fetch.httpSession(context), headers: fields, timeout: fetch.timeout(default: 30),
        maxAttempts: nil,
        environment: context.environment)
      baseURL = url.origin
      path = url.path.isEmpty ? "/" : url.path
    } else {
      if !headers.isEmpty { throw APXError(.usage, "-H goes with a URL: a schema file is read, not requested") }
      schema = try await GraphQLSchemaOptions.read(target)
    }
    let name = output.api ?? "graphql"
    var report = ImportReport(
      api: GraphQLImporter.importSchema(schema, apiName: name, baseURL: baseURL, path: path, depth: depth),
      format: "GraphQL")
    report.operationCount = schema.rootFields.count
    try output.write(report, source: target, context: context)
  }
}
