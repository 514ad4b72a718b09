import APXCore
import Testing

/// `"kind": "graphql"` endpoints in a registry file: `query`, `operation_name` and params.
@Suite("GraphQL registry endpoints")
struct GraphQLRegistryTests {
  @Test func aGraphQLEndpointLoadsAsAPostWhoseParamsAreVariables() throws {
    let text = RegistryFixture.document(
      endpoints: #"""
            "book": { "kind": "graphql", "path": "/graphql", "query": "query B($id: ID!) { book(id: $id) { title } }",
              "operation_name": "B", "params": { "id": { "required": true } } }
        """#)
    let api = try #require(RegistryFixture.load(text))
    let endpoint = try #require(api.endpoints.first)
    #expect(endpoint.kind == .graphql && endpoint.method == "POST" && endpoint.path == "/graphql")
    #expect(endpoint.graphql?.document == "query B($id: ID!) { book(id: $id) { title } }")
    #expect(endpoint.graphql?.operationName == "B")
    #expect(endpoint.params.map(\.location) == [.body])
    let written = RegistryWriter.endpoint(endpoint)
    #expect(written["query"] == .string("query B($id: ID!) { book(id: $id) { title } }"))
    #expect(written["operation_name"] == .string("B") && written["method"] == nil)
  }

  @Test func aGraphQLEndpointNeedsItsQueryAndOtherKindsTakeNone() {
    let missing = RegistryFixture.error(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "graphql", "path": "/graphql" }"#))
    #expect(missing?.message == "missing required key \"query\"")
    let misplaced = RegistryFixture.error(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "rest", "path": "/", "query": "{ a }" }"#))
    #expect(misplaced?.message == "\"query\" applies only to kind \"graphql\"")
  }
}
