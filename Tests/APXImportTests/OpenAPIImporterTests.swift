import APXCore
import APXImport
import Testing

/// The OpenAPI importer on small documents written for one behaviour each.
@Suite struct OpenAPIImporterTests {
  func importing(_ json: String, options: OpenAPIImporter.Options = .init()) throws -> ImportReport {
    let doc = try DescriptionReader.read(Array(json.utf8), source: "test.json")
    return try OpenAPIImporter.importDocument(doc, options: options)
  }

  /// The written registry loads, and writing it again gives the same bytes.
  func loads(_ report: ImportReport) throws -> APIDefinition {
    let text = RegistryWriter.text(report.api)
    let api = try RegistryLoader.load(Array(text.utf8), file: "\(report.api.name).json")
    #expect(RegistryWriter.text(api) == text)
    return api
  }

  @Test func namesFollowTheDocumentedRule() {
    #expect(OperationNaming.name(operationId: "listPets", method: "GET", path: "/pets") == "list-pets")
    #expect(OperationNaming.name(operationId: "repos/get-content", method: "GET", path: "/") == "repos.get-content")
    #expect(OperationNaming.name(operationId: "Pets.Get_ByID", method: "GET", path: "/") == "pets.get-by-id")
    #expect(OperationNaming.name(operationId: "getHTTPStatus2", method: "GET", path: "/") == "get-http-status2")
    #expect(OperationNaming.name(operationId: nil, method: "GET", path: "/pets/{petId}") == "pets.pet-id.get")
    #expect(OperationNaming.name(operationId: nil, method: "DELETE", path: "/") == "delete")
    #expect(OperationNaming.name(operationId: "  ", method: "POST", path: "/a_b") == "a-b.post")
  }

  @Test(arguments: [
    ("GitHub's official OpenAPI spec + Octokit", "githubs-official-openapi-spec-octokit"),
    ("Swagger Petstore - OpenAPI 3.0", "swagger-petstore-openapi-3-0"),
    ("日本語", "api"),
    ("A very long title that goes on and on well past forty characters", "a-very-long-title-that-goes-on-and-on"),
    (String(repeating: "x", count: 50) + " tail", String(repeating: "x", count: 40)),
  ])
  func theAPINameComesFromTheTitleSplitAtSpacesAndPunctuationOnly(title: String, name: String) throws {
    let doc = #"{"openapi": "3.0.0", "info": {"title": "\#(title)", "version": "1"}, "paths": {}}"#
    #expect(try importing(doc).api.name == name)
  }

  @Test func aCycleABrokenOperationAndOddKeywordsImportEverythingElse() throws {
    let report = try importing(
      """
      {"openapi": "3.1.0", "info": {"title": "Odd Things", "version": "1", "x-vendor": {"deep": [1, 2]}},
       "servers": [{"url": "https://api.example.com/v{version}", "variables": {"version": {"default": "2"}}}],
       "paths": {
         "/nodes/{id}": {
           "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "maximum": 123456789012345678901234567890}}],
           "get": {"operationId": "getNode", "responses": {"200": {"description": "ok"}}},
           "put": {"operationId": "putNode",
             "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
             "responses": {"200": {"description": "ok"}}}
         },
         "/broken": {"get": {"operationId": "broken", "parameters": [{"$ref": "#/components/parameters/Missing"}], "responses": {}}},
         "/loop": {"get": {"operationId": "loop", "parameters": [{"$ref": "#/components/parameters/Loop"}], "responses": {}}},
         "/trace": {"trace": {"operationId": "traceIt", "responses": {}}},
         "/hooks": {"post": {"operationId": "subscribe", "responses": {"201": {"description": "ok"}},
           "callbacks": {"onEvent": {"{$request.body#/url}": {"post": {"responses": {"200": {"description": "ok"}}}}}}}}
       },
       "webhooks": {"newNode": {"post": {"responses": {"200": {"description": "ok"}}}}},
       "components": {
         "parameters": {"Loop": {"$ref": "#/components/parameters/Loop"}},
         "schemas": {
           "Node": {"type": "object", "required": ["name"], "x-unknown-keyword": true, "exclusiveMinimum": true,
             "properties": {"name": {"type": "string"}, "parent": {"$ref": "#/components/schemas/Node"},
               "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
               "id": {"type": "integer", "readOnly": true},
               "meta": {"type": "object", "example": {"$ref": "not a reference, just data"}}}}
         }
       }}
      """)
    let api = try loads(report)
    #expect(api.name == "odd-things")
    #expect(api.environments.map(\.baseURL) == ["https://api.example.com/v2"])
    #expect(api.endpoints.map(\.name) == ["get-node", "put-node", "subscribe"])
    #expect(report.skipped.map(\.item).contains("GET /broken (broken)"))
    #expect(report.skipped.map(\.item).contains("GET /loop (loop)"))
    #expect(report.skipped.contains { $0.item == "TRACE /trace (traceIt)" })
    #expect(report.skipped.contains { $0.item.hasPrefix("callbacks of POST /hooks") })
    #expect(report.skipped.contains { $0.item == "webhook newNode" })
    #expect(report.operationCount == 6)
    let put = try #require(api.endpoint(named: "put-node"))
    #expect(put.params.map(\.name) == ["id", "name", "parent", "children", "meta"])
    #expect(put.param(named: "name")?.required == true)
    #expect(put.param(named: "parent")?.type == .json)
    #expect(put.param(named: "children")?.type == .array)
    // The recursive schema ends in {} and example data is copied as it is.
    let example = try #require(put.bodyExample)
    #expect(example["name"] == .string("string"))
    #expect(example["parent"] == .object([]))
    #expect(example["meta"] == .object([JSONMember("$ref", .string("not a reference, just data"))]))
    #expect(example["id"] == nil)
  }

  @Test func parametersMergeAndKeepTheirStyles() throws {
    let report = try importing(
      """
      {"openapi": "3.0.3", "info": {"title": "Styles", "version": "1"},
       "paths": {"/items/{ids}": {
         "parameters": [
           {"name": "ids", "in": "path", "required": true, "style": "label", "schema": {"type": "array", "items": {"type": "integer"}}},
           {"name": "q", "in": "query", "schema": {"type": "string"}, "description": "Path level."}],
         "get": {"parameters": [
           {"name": "q", "in": "query", "required": true, "deprecated": true, "schema": {"type": "string", "enum": ["a", "b"], "default": "a"}, "description": "Operation level."},
           {"name": "filter", "in": "query", "style": "deepObject", "explode": true, "schema": {"type": "object"}},
           {"name": "tags", "in": "query", "explode": false, "schema": {"type": "array", "items": {"type": "string"}}},
           {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
           {"name": "Accept", "in": "header", "schema": {"type": "string"}},
           {"name": "session", "in": "cookie", "schema": {"type": "string"}}],
           "responses": {"200": {"description": "ok"}}}}}}
      """)
    let api = try loads(report)
    let e = try #require(api.endpoints.first)
    #expect(e.name == "items.ids.get")
    #expect(e.params.map(\.name) == ["ids", "q", "filter", "tags", "X-Trace", "session"])
    #expect(e.param(named: "ids")?.style == .label)
    let q = try #require(e.param(named: "q"))
    #expect(q.required && q.deprecated && q.defaultValue == .string("a") && q.description == "Operation level.")
    #expect(q.allowed == [.string("a"), .string("b")])
    #expect(e.param(named: "filter")?.style == .deepObject)
    #expect(e.param(named: "tags")?.explode == false)
    #expect(e.param(named: "session")?.location == .cookie)
    // Sent the way the document says.
    let plan = try RequestBuilder(api: api, endpoint: e, baseURL: "http://h").build(
      .init(values: [
        ("ids", .json(.array([.int(1), .int(2)]))), ("q", .json(.string("b"))),
        ("filter", .json(.object([JSONMember("state", .string("open"))]))),
        ("tags", .json(.array([.string("x"), .string("y")]))), ("session", .json(.string("s1"))),
      ]))
    #expect(plan.url == "http://h/items/.1,2?q=b&filter%5Bstate%5D=open&tags=x%2Cy")
    #expect(plan.headers.contains(HeaderField("Cookie", "session=s1")))
  }

  @Test func bodiesBecomeFieldsFormsFilesAndTemplates() throws {
    let report = try importing(
      """
      {"openapi": "3.0.0", "info": {"title": "Bodies", "version": "1"},
       "paths": {
         "/json/{name}": {"post": {"operationId": "json", "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string"}}],
           "requestBody": {"required": true, "content": {"application/vnd.api+json": {"schema": {"type": "object", "required": ["name"],
             "properties": {"name": {"type": "string"}, "count": {"type": "integer"}}}}}}, "responses": {"200": {"description": "ok"}}}},
         "/form": {"post": {"operationId": "form", "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"type": "object",
             "properties": {"a": {"type": "string"}}}}}}, "responses": {"200": {"description": "ok"}}}},
         "/upload": {"post": {"operationId": "upload", "requestBody": {"required": true, "content": {"multipart/form-data": {"schema": {"type": "object",
             "required": ["file"], "properties": {"file": {"type": "string", "format": "binary"}, "note": {"type": "string"}}},
             "encoding": {"file": {"contentType": "image/png"}}}}}, "responses": {"200": {"description": "ok"}}}},
         "/raw": {"put": {"operationId": "raw", "requestBody": {"content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}},
             "responses": {"200": {"description": "ok"}}}},
         "/events": {"get": {"operationId": "events", "responses": {"200": {"description": "stream", "content": {"text/event-stream": {"schema": {"type": "string"}}}}}}}
       }}
      """)
    let api = try loads(report)
    let json = try #require(api.endpoint(named: "json"))
    #expect(json.params.map(\.name) == ["name", "body.name", "count"])
    #expect(json.param(named: "body.name")?.wireName == "name")
    #expect(json.param(named: "body.name")?.required == true)
    #expect(json.headers == [HeaderField("Content-Type", "application/vnd.api+json")])
    #expect(json.bodyExample == .object([JSONMember("name", .string("string")), JSONMember("count", .int(0))]))
    #expect(api.endpoint(named: "form")?.bodyEncoding == .form)
    let upload = try #require(api.endpoint(named: "upload"))
    #expect(upload.bodyEncoding == .multipart)
    #expect(upload.param(named: "file")?.type == .file)
    #expect(upload.param(named: "file")?.contentType == "image/png")
    let raw = try #require(api.endpoint(named: "raw"))
    #expect(raw.bodyEncoding == .raw && raw.param(named: "body")?.type == .file)
    #expect(api.endpoint(named: "events")?.kind == .sse)
  }

  @Test func jsonOrEventsIsMarkedAndAcceptsBoth() throws {
    let report = try importing(
      """
      {"openapi": "3.1.0", "info": {"title": "Chat", "version": "1"},
       "paths": {"/complete": {"post": {"operationId": "complete",
         "requestBody": {"content": {"application/json": {"schema": {"type": "object",
           "properties": {"stream": {"type": "boolean"}}}}}},
         "responses": {"200": {"description": "JSON, or events when stream is true", "content": {
           "application/json": {"schema": {"type": "object"}},
           "text/event-stream; charset=utf-8": {"schema": {"type": "string"}},
           "bad type\\r\\n": {}}}}}}}}
      """)
    let e = try #require(try loads(report).endpoint(named: "complete"))
    #expect(e.kind == .rest)
    #expect(e.headers.contains(HeaderField("Accept", "application/json, text/event-stream")))
    #expect(e.description?.contains("application/json or text/event-stream depending on the request") == true)
  }

  @Test func securityBecomesAuthFromEnvironmentVariables() throws {
    let report = try importing(
      """
      {"openapi": "3.0.0", "info": {"title": "Secure", "version": "1"},
       "security": [{"oauth": ["read"]}],
       "paths": {
         "/a": {"get": {"operationId": "a", "responses": {"200": {"description": "ok"}}}},
         "/b": {"get": {"operationId": "b", "security": [], "responses": {"200": {"description": "ok"}}}},
         "/c": {"get": {"operationId": "c", "security": [{"key": []}], "responses": {"200": {"description": "ok"}}}},
         "/d": {"get": {"operationId": "d", "security": [{"login": []}], "responses": {"200": {"description": "ok"}}}}
       },
       "components": {"securitySchemes": {
         "oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "/oauth/token", "scopes": {"read": "r"}}}},
         "key": {"type": "apiKey", "in": "query", "name": "api_key"},
         "login": {"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "/auth", "tokenUrl": "/token", "scopes": {}}}}}}}
      """)
    let api = try loads(report)
    #expect(
      api.auth
        == .oauth2ClientCredentials(
          OAuth2Config(
            tokenURL: "/oauth/token", clientID: "${env:SECURE_OAUTH_CLIENT_ID}",
            clientSecret: "${env:SECURE_OAUTH_CLIENT_SECRET}", scopes: ["read"])))
    #expect(api.endpoint(named: "a")?.auth == nil)
    #expect(api.endpoint(named: "b")?.auth == AuthConfig.none)
    #expect(
      api.endpoint(named: "c")?.auth == .apiKey(location: .query, name: "api_key", value: "${env:SECURE_KEY_API_KEY}"))
    #expect(api.endpoint(named: "d")?.auth == .bearer(token: "${env:SECURE_LOGIN_TOKEN}"))
    #expect(report.notes.contains { $0.contains("SECURE_LOGIN_TOKEN") })
    #expect(
      report.environmentVariables == [
        "SECURE_BASE_URL", "SECURE_OAUTH_CLIENT_ID", "SECURE_OAUTH_CLIENT_SECRET", "SECURE_KEY_API_KEY",
        "SECURE_LOGIN_TOKEN",
      ])
  }

  @Test func relativeServersResolveAgainstTheSourceURL() throws {
    let doc = """
      {"openapi": "3.1.0", "info": {"title": "Rel", "version": "1"}, "servers": [{"url": "/api/v31"}], "paths": {}}
      """
    let fetched = try importing(doc, options: .init(sourceURL: "http://127.0.0.1:9/specs/openapi.json"))
    #expect(fetched.api.environments.map(\.baseURL) == ["http://127.0.0.1:9/api/v31"])
    let local = try importing(doc)
    #expect(local.api.environments.map(\.baseURL) == ["${env:REL_BASE_URL}/api/v31"])
    #expect(local.environmentVariables == ["REL_BASE_URL"])
  }

  @Test func swagger2BodiesFormsAndHosts() throws {
    let report = try importing(
      """
      {"swagger": "2.0", "info": {"title": "Old", "version": "1"}, "host": "old.example.com", "basePath": "/v1",
       "schemes": ["http", "https"], "securityDefinitions": {"basic": {"type": "basic"}}, "security": [{"basic": []}],
       "paths": {
         "/pets": {"post": {"operationId": "addPet", "parameters": [{"in": "body", "name": "body", "required": true,
           "schema": {"$ref": "#/definitions/Pet"}}], "responses": {"200": {"description": "ok"}}},
           "get": {"operationId": "findPets", "parameters": [{"in": "query", "name": "status", "type": "array",
             "items": {"type": "string"}, "collectionFormat": "multi"}], "responses": {"200": {"description": "ok"}}}},
         "/pets/{id}/image": {"post": {"operationId": "upload", "consumes": ["multipart/form-data"], "parameters": [
           {"in": "path", "name": "id", "required": true, "type": "integer", "format": "int64"},
           {"in": "formData", "name": "file", "type": "file"}, {"in": "formData", "name": "note", "type": "string"}],
           "responses": {"200": {"description": "ok"}}}}},
       "definitions": {"Pet": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}}}}
      """)
    let api = try loads(report)
    #expect(report.format == "Swagger 2.0")
    #expect(api.environments.map(\.baseURL) == ["https://old.example.com/v1", "http://old.example.com/v1"])
    #expect(api.auth == .basic(username: "${env:OLD_USERNAME}", password: "${env:OLD_PASSWORD}"))
    #expect(api.endpoint(named: "add-pet")?.params.map(\.name) == ["name", "tags"])
    #expect(api.endpoint(named: "find-pets")?.param(named: "status")?.explode == true)
    let upload = try #require(api.endpoint(named: "upload"))
    #expect(upload.bodyEncoding == .multipart)
    #expect(upload.param(named: "file")?.type == .file)
    #expect(upload.param(named: "id")?.type == .integer)
  }

  @Test func swagger2CollectionFormatsAreSentAsDeclaredOrSkipped() throws {
    func op(_ id: String, _ format: String) -> String {
      """
      "/\(id)": {"get": {"operationId": "\(id)", "parameters": [{"in": "query", "name": "v", "type": "array",
        "items": {"type": "string"}, "collectionFormat": "\(format)"}], "responses": {"200": {"description": "ok"}}}}
      """
    }
    let report = try importing(
      """
      {"swagger": "2.0", "info": {"title": "Formats", "version": "1"}, "host": "h", "paths": {
        \(op("csv", "csv")), \(op("ssv", "ssv")), \(op("pipes", "pipes")), \(op("multi", "multi")), \(op("tsv", "tsv"))}}
      """)
    let api = try loads(report)
    let values: JSONValue = .array([.string("a"), .string("b")])
    func query(_ name: String) throws -> String {
      let e = try #require(api.endpoint(named: name))
      let builder = RequestBuilder(api: api, endpoint: e, baseURL: "http://h")
      return String(try builder.build(.init(values: [("v", .json(values))])).url.drop { $0 != "?" })
    }
    #expect(try query("csv") == "?v=a%2Cb")
    #expect(try query("ssv") == "?v=a%20b")
    #expect(try query("pipes") == "?v=a%7Cb")
    #expect(try query("multi") == "?v=a&v=b")
    #expect(api.endpoint(named: "tsv") == nil)
    #expect(report.skipped.contains { $0.item.contains("/tsv") && $0.reason.contains("collectionFormat \"tsv\"") })
  }

  @Test func duplicateNamesGetNumbersAndReimportIsByteIdentical() throws {
    let doc = """
      {"openapi": "3.0.0", "info": {"title": "Dup", "version": "1"}, "paths": {
        "/a": {"get": {"operationId": "list", "responses": {}}},
        "/b": {"get": {"operationId": "list", "responses": {}}},
        "/c": {"get": {"operationId": "List", "responses": {}}}}}
      """
    let first = try importing(doc)
    #expect(first.api.endpoints.map(\.name) == ["list", "list-2", "list-3"])
    #expect(RegistryWriter.text(first.api) == RegistryWriter.text(try importing(doc).api))
  }

  @Test func yamlWithAnUnquotedRefAndBigNumbersImports() throws {
    let yaml = """
      openapi: 3.1.0
      info:
        title: Yaml Doc
        version: 1.0.0
      paths:
        /things:
          get:
            operationId: listThings
            parameters:
              - name: limit
                in: query
                schema:
                  type: integer
                  maximum: 99999999999999999999999
                  default: 10
            responses:
              '200':
                description: ok
          post:
            operationId: addThing
            requestBody:
              content:
                application/json:
                  schema:
                    $ref: #/components/schemas/Thing
            responses:
              '200':
                description: ok
      """
    let doc = try DescriptionReader.read(Array(yaml.utf8), source: "t.yaml")
    let report = try OpenAPIImporter.importDocument(doc)
    let api = try loads(report)
    #expect(api.endpoints.map(\.name) == ["list-things", "add-thing"])
    #expect(api.endpoint(named: "list-things")?.param(named: "limit")?.defaultValue == .int(10))
  }

  @Test func hostileInputIsRefusedWithAMessage() {
    let deep = String(repeating: "[", count: 100_000)
    #expect(throws: APXError.self) { try DescriptionReader.read(Array(deep.utf8), source: "deep.json") }
    let deepYAML = String(repeating: "- ", count: 5000) + "x"
    #expect(throws: APXError.self) { try DescriptionReader.read(Array(deepYAML.utf8), source: "deep.yaml") }
    #expect(throws: APXError.self) { try OpenAPIImporter.importDocument(.object([JSONMember("a", .int(1))])) }
    #expect(throws: APXError.self) { try DescriptionReader.read(Array("key: [unclosed".utf8), source: "bad.yaml") }
  }
}
