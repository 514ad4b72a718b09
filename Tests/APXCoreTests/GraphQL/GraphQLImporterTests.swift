import APXCore
import APXGraphQL
import Testing

/// `apx import graphql`'s pure part: endpoints from a schema built from SDL.
@Suite("GraphQL import: endpoints, names, selection sets")
struct GraphQLImporterTests {
  static let sdl = """
    type Query { node(id: ID!): Node  ping: Int  item: Item }
    type Mutation { item(name: String!, kind: Kind = SMALL): Item  rename(ids: [ID!]!): Boolean }
    type Node { id: ID!  parent: Node  children(first: Int!): [Node!]!  tag: Kind }
    type Item { name: String  node: Node }
    enum Kind { SMALL LARGE }
    """

  @Test func aClashingMutationIsPrefixedAndArgumentsBecomeParams() async throws {
    let schema = try await GraphQLSchemaSummary.fromSDL(Self.sdl, origin: "test")
    let api = GraphQLImporter.importSchema(schema, apiName: "t", baseURL: nil, path: "/graphql", depth: 2)
    #expect(api.endpoints.map(\.name).sorted() == ["item", "mutation.item", "node", "ping", "rename"])
    let mutation = try #require(api.endpoints.first { $0.name == "mutation.item" })
    #expect(mutation.params.map(\.name) == ["name", "kind"])
    #expect(mutation.params.map(\.required) == [true, false])
    #expect(mutation.params.map(\.type) == [.string, .string])
    #expect(mutation.params[1].description == "GraphQL Kind = SMALL")
    let rename = try #require(api.endpoints.first { $0.name == "rename" })
    #expect(rename.params.first?.type == .json && rename.params.first?.required == true)
    #expect(rename.graphql?.document == "mutation rename($ids: [ID!]!) { rename(ids: $ids) }")
  }

  /// Depth 2: Node's own scalars and enum, `parent` cut (Node is on the path), `children` left
  /// out (it needs an argument).
  @Test func selectionSetsStopAtTheDepthAndCutCycles() async throws {
    let schema = try await GraphQLSchemaSummary.fromSDL(Self.sdl, origin: "test")
    let api = GraphQLImporter.importSchema(schema, apiName: "t", baseURL: nil, path: "/graphql", depth: 2)
    let node = try #require(api.endpoints.first { $0.name == "node" })
    #expect(node.graphql?.document == "query node($id: ID!) { node(id: $id) { id tag } }")
    let item = try #require(api.endpoints.first { $0.name == "item" })
    #expect(item.graphql?.document == "query item { item { name node { id tag } } }")
    let shallow = GraphQLImporter.importSchema(schema, apiName: "t", baseURL: nil, path: "/g", depth: 1)
    #expect(shallow.endpoints.first { $0.name == "item" }?.graphql?.document == "query item { item { name } }")
    // Every generated document parses, and its variables are the endpoint's params.
    for endpoint in api.endpoints {
      let document = try GraphQLDocument(parsing: endpoint.graphql?.document ?? "", origin: endpoint.name)
      let operation = try document.operation(named: nil)
      #expect(operation.variables.map(\.name) == endpoint.params.map(\.name))
    }
  }
}
