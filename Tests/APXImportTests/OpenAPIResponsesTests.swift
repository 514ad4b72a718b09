import APXCore
import APXImport
import Testing

/// What the importer writes into `responses` and `schemas` from an operation's answers.
@Suite struct OpenAPIResponsesTests {
  func importing(_ json: String) throws -> APIDefinition {
    let doc = try DescriptionReader.read(Array(json.utf8), source: "test.json")
    let report = try OpenAPIImporter.importDocument(doc)
    let text = RegistryWriter.text(report.api)
    let api = try RegistryLoader.load(Array(text.utf8), file: "\(report.api.name).json")
    #expect(RegistryWriter.text(api) == text)
    return api
  }

  @Test func answersKeepTheirTypesSchemasAndNamedExamples() throws {
    let api = try importing(
      """
      {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
       "paths": {"/pets/{id}": {"get": {"operationId": "getPet",
         "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
         "responses": {
           "200": {"description": "A pet, described at length.", "content": {
             "application/xml": {"schema": {"type": "string"}},
             "application/json": {"schema": {"$ref": "#/components/schemas/Pet"},
               "examples": {"rex": {"value": {"id": 1, "name": "Rex"}}, "tom": {"$ref": "#/components/examples/Tom"}}}}},
           "204": {"description": "nothing"},
           "404": {"$ref": "#/components/responses/NotFound"},
           "x-vendor": {"description": "not a status"}}}}},
       "components": {
         "schemas": {
           "Pet": {"type": "object", "description": "prose goes", "x-internal": true, "required": ["id"],
             "properties": {"id": {"type": "integer", "minimum": 1}, "name": {"type": "string", "maxLength": 20},
               "parent": {"$ref": "#/components/schemas/Pet"}, "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}}}},
           "Tag": {"type": "string", "enum": ["a", "b"]},
           "Unused": {"type": "string"}},
         "examples": {"Tom": {"value": {"id": 2, "name": "Tom"}}},
         "responses": {"NotFound": {"description": "gone", "content": {"application/problem+json": {"schema": {"type": "object"}, "example": {"title": "gone"}}}}}}}
      """)
    let responses = try #require(api.endpoint(named: "get-pet")?.responses)
    #expect(api.endpoint(named: "get-pet")?.bodySchema == nil)
    #expect(responses.map(\.status) == ["200", "204", "404"])
    #expect(responses[0].contentType == "application/json")
    #expect(responses[0].schema == .object([JSONMember("$ref", .string("#/schemas/Pet"))]))
    #expect(responses[0].examples.map(\.key) == ["rex", "tom"])
    #expect(responses[0].examples[1].value["name"] == .string("Tom"))
    #expect(responses[1] == EndpointResponse(status: "204"))
    #expect(responses[2].contentType == "application/problem+json")
    #expect(responses[2].examples.map(\.key) == ["default"])
    // Named schemas are copied once, those they refer to included, without prose or extensions.
    #expect(api.schemas.map(\.key) == ["Pet", "Tag"])
    let pet = try #require(api.schemas.first?.value)
    #expect(pet["description"] == nil && pet["x-internal"] == nil)
    #expect(pet["properties"]?["parent"] == .object([JSONMember("$ref", .string("#/schemas/Pet"))]))
    #expect(pet["properties"]?["id"]?["minimum"] == .int(1))
  }

  @Test func aJSONBodyKeepsItsSchemaAFormBodyDoesNot() throws {
    let api = try importing(
      """
      {"openapi": "3.1.0", "info": {"title": "Bodies", "version": "1"},
       "paths": {
         "/pets": {"post": {"operationId": "addPet", "requestBody": {"content": {
           "application/json": {"schema": {"$ref": "#/components/schemas/NewPet"}},
           "application/xml": {"schema": {"type": "string"}}}}, "responses": {"201": {"description": "made"}}}},
         "/forms": {"post": {"operationId": "sendForm", "requestBody": {"content": {
           "application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"a": {"type": "string"}}}}}},
           "responses": {"204": {"description": "ok"}}}}},
       "components": {"schemas": {"NewPet": {"type": "object", "required": ["name"],
         "properties": {"name": {"type": "string", "minLength": 1}, "id": {"type": "integer", "readOnly": true}}}}}}
      """)
    #expect(api.endpoint(named: "add-pet")?.bodySchema == .object([JSONMember("$ref", .string("#/schemas/NewPet"))]))
    #expect(api.endpoint(named: "send-form")?.bodySchema == nil)
    #expect(api.schemas.first?.value["properties"]?["id"]?["readOnly"] == .bool(true))
  }

  @Test func swagger2AnswersTakeTheirTypeFromProduces() throws {
    let api = try importing(
      """
      {"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "produces": ["application/json"],
       "paths": {"/things": {"get": {"operationId": "list", "responses": {
         "200": {"description": "ok", "schema": {"type": "array", "items": {"$ref": "#/definitions/Thing"}},
           "examples": {"application/json": [{"id": 7}]}}}}}},
       "definitions": {"Thing": {"type": "object", "properties": {"id": {"type": "integer"}}}}}
      """)
    let response = try #require(api.endpoint(named: "list")?.responses.first)
    #expect(response.contentType == "application/json")
    #expect(response.schema?["items"] == .object([JSONMember("$ref", .string("#/schemas/Thing"))]))
    #expect(response.examples == [JSONMember("default", .array([.object([JSONMember("id", .int(7))])]))])
    #expect(api.schemas.map(\.key) == ["Thing"])
  }
}
