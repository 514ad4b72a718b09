public import APXCore

/// The GraphQL documents of a registry API, for what reads them without calling (`apx mock`).
public enum GraphQLDocuments {
  /// `api` with each GraphQL endpoint's `@PATH` document replaced by the file's text, for what
  /// reads documents without calling (`apx mock`); a file that cannot be read is the error a
  /// call of that endpoint would give.
  public static func resolvingDocuments(_ api: APIDefinition) throws(APXError) -> APIDefinition {
    var api = api
    for index in api.endpoints.indices {
      guard case .graphql(let route, var options) = api.endpoints[index].options, options.document.hasPrefix("@")
      else { continue }
      options.document = try GraphQLCall.documentText(api: api, endpoint: api.endpoints[index].name, options: options)
      api.endpoints[index].options = .graphql(route, options)
    }
    return api
  }
}
