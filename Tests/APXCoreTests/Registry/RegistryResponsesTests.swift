import APXCore
import Testing

/// Registry `responses` and top-level `schemas`: loaded, written back unchanged, and refused
/// when a status, a schema or a reference is not what the registry allows.
@Suite struct RegistryResponsesTests {
  static let sample = #"""
    {
      "api": "pets",
      "schemas": {"Pet": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}},
      "endpoints": {
        "get": {
          "kind": "rest", "path": "/pets/{id}",
          "params": {"id": {"in": "path", "type": "integer", "required": true}},
          "body_schema": {"$ref": "#/schemas/Pet"},
          "responses": {
            "200": {"content_type": "application/json", "schema": {"$ref": "#/schemas/Pet"}, "examples": {"rex": {"id": 1}}},
            "4XX": {"content_type": "application/problem+json"},
            "default": {}
          }
        }
      }
    }
    """#

  @Test func responsesAndSchemasLoadAndWriteBackUnchanged() throws {
    let api = try #require(RegistryFixture.load(Self.sample))
    let responses = try #require(api.endpoint(named: "get")?.responses)
    #expect(responses.map(\.status) == ["200", "4XX", "default"])
    #expect(responses.map(\.code) == [200, 400, nil])
    #expect(responses[0].contentType == "application/json")
    #expect(responses[0].examples == [JSONMember("rex", .object([JSONMember("id", .int(1))]))])
    #expect(responses[2].contentType == nil && responses[2].schema == nil)
    #expect(api.schemas.map(\.key) == ["Pet"])
    #expect(api.endpoint(named: "get")?.bodySchema == .object([JSONMember("$ref", .string("#/schemas/Pet"))]))
    let text = RegistryWriter.text(api)
    let again = try RegistryLoader.load(Array(text.utf8), file: "again.json")
    #expect(RegistryWriter.text(again) == text)
    #expect(again.endpoint(named: "get")?.responses == responses)
  }

  @Test func aCallSkimsTheSchemas() throws {
    let api = try RegistryLoader.load(Array(Self.sample.utf8), file: "sample.json", endpoint: "get")
    #expect(api.schemas.isEmpty)
    #expect(api.endpoint(named: "get")?.responses.count == 3)
  }

  @Test func aBodySchemaMustBeASchemaWhoseReferencesResolve() {
    let number = #"{"api": "a", "endpoints": {"e": {"kind": "rest", "path": "/", "body_schema": 1}}}"#
    #expect(
      RegistryFixture.errors(number).map(\.message) == ["expected a JSON Schema (an object or a boolean), got number"])
    let dangling =
      ##"{"api": "a", "endpoints": {"e": {"kind": "rest", "path": "/", "body_schema": {"$ref": "#/schemas/X"}}}}"##
    #expect(
      RegistryFixture.errors(dangling).map(\.message) == ["the reference #/schemas/X names no entry of \"schemas\""])
  }

  @Test(arguments: [
    (#""600": {}"#, "\"600\" is not a response status"),
    (#""2xy": {}"#, "\"2xy\" is not a response status"),
    (#""200": {"schema": 3}"#, "expected a JSON Schema (an object or a boolean), got number"),
    (#""200": {"example": {}}"#, "unknown key \"example\""),
    (
      ##""200": {"schema": {"$ref": "#/schemas/Missing"}}"##,
      "the reference #/schemas/Missing names no entry of \"schemas\""
    ),
    (
      ##""200": {"schema": {"$ref": "#/components/schemas/Pet"}}"##,
      "the reference #/components/schemas/Pet names no entry of \"schemas\""
    ),
  ])
  func aBadResponseIsRefused(response: String, message: String) throws {
    let text = #"{"api": "a", "endpoints": {"e": {"kind": "rest", "path": "/", "responses": {"# + response + "}}}}"
    let errors = RegistryFixture.errors(text)
    #expect(errors.contains { $0.message == message }, "\(errors.map(\.message))")
  }
}
