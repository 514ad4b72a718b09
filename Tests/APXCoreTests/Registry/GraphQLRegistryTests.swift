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

  @Test func aSubscriptionsTransportAndReconnectLoadAndAreWrittenBack() throws {
    let text = RegistryFixture.document(
      endpoints: #"""
            "progress": { "kind": "graphql", "query": "subscription { p }", "transport": "sse",
              "reconnect": { "delays": [1, 2], "max_failures": 4 } }
        """#)
    let endpoint = try #require(RegistryFixture.load(text)?.endpoints.first)
    #expect(endpoint.graphql?.transport == .sse)
    #expect(endpoint.graphql?.reconnect == ReconnectConfig(delays: [1, 2], maxFailures: 4))
    let written = RegistryWriter.endpoint(endpoint)
    #expect(written["transport"] == .string("sse"))
    #expect(written["reconnect"]?["max_failures"] == .int(4))
    let unknown = RegistryFixture.error(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "graphql", "query": "{ a }", "transport": "pigeon" }"#))
    #expect(unknown?.message == "unknown transport \"pigeon\"")
    let misplaced = RegistryFixture.error(
      RegistryFixture.document(endpoints: #"    "e": { "kind": "rest", "path": "/", "transport": "ws" }"#))
    #expect(misplaced?.message == "\"transport\" applies only to kind \"graphql\"")
  }
}
