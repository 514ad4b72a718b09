import APXCore
import APXImport
import Testing

/// Every security scheme type an OpenAPI 3.2 document can declare becomes registry auth read
/// from environment variables, or a note saying what apx cannot run and what to export.
@Suite struct OpenAPISecurityShapesTests {
  static let document = """
    {"openapi": "3.2.0", "info": {"title": "Shapes", "version": "1"},
     "servers": [{"url": "https://api.example.com"}],
     "paths": {
       "/bearer": {"get": {"operationId": "bearer", "security": [{"jwt": []}], "responses": {"200": {"description": "ok"}}}},
       "/basic": {"get": {"operationId": "basic", "security": [{"login": []}], "responses": {"200": {"description": "ok"}}}},
       "/header": {"get": {"operationId": "header", "security": [{"hkey": []}], "responses": {"200": {"description": "ok"}}}},
       "/cookie": {"get": {"operationId": "cookie", "security": [{"ckey": []}],
         "parameters": [{"name": "theme", "in": "cookie", "schema": {"type": "string"}}],
         "responses": {"200": {"description": "ok"}}}},
       "/oidc": {"get": {"operationId": "oidc", "security": [{"oidc": []}], "responses": {"200": {"description": "ok"}}}},
       "/implicit": {"get": {"operationId": "implicit", "security": [{"browser": ["read"]}], "responses": {"200": {"description": "ok"}}}},
       "/digest": {"get": {"operationId": "digest", "security": [{"digest": []}], "responses": {"200": {"description": "ok"}}}},
       "/either": {"get": {"operationId": "either", "security": [{"digest": []}, {"jwt": []}], "responses": {"200": {"description": "ok"}}}},
       "/optional": {"get": {"operationId": "optional", "security": [{}, {"jwt": []}], "responses": {"200": {"description": "ok"}}}}
     },
     "components": {"securitySchemes": {
       "jwt": {"type": "http", "scheme": "Bearer", "bearerFormat": "JWT"},
       "login": {"type": "http", "scheme": "basic"},
       "hkey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
       "ckey": {"type": "apiKey", "in": "cookie", "name": "sid"},
       "oidc": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/.well-known/openid-configuration"},
       "browser": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://id.example.com/auth", "scopes": {"read": "r"}}}},
       "digest": {"type": "http", "scheme": "digest"}}}}
    """

  @Test func eachSchemeTypeMapsToAuthOrANote() throws {
    let doc = try DescriptionReader.read(Array(Self.document.utf8), source: "shapes.json")
    let report = try OpenAPIImporter.importDocument(doc, options: .init())
    let text = RegistryWriter.text(report.api)
    let api = try RegistryLoader.load(Array(text.utf8), file: "shapes.json")
    #expect(api.endpoints.count == 9)
    func auth(_ name: String) -> AuthConfig? { api.endpoint(named: name)?.auth }
    #expect(auth("bearer") == .bearer(token: "${env:SHAPES_JWT_TOKEN}"))
    #expect(auth("basic") == .basic(username: "${env:SHAPES_LOGIN_USERNAME}", password: "${env:SHAPES_LOGIN_PASSWORD}"))
    #expect(auth("header") == .apiKey(location: .header, name: "X-Api-Key", value: "${env:SHAPES_HKEY_API_KEY}"))
    #expect(auth("cookie") == .apiKey(location: .header, name: "Cookie", value: "sid=${env:SHAPES_CKEY_API_KEY}"))
    #expect(api.endpoint(named: "cookie")?.param(named: "theme")?.location == .cookie)
    #expect(auth("oidc") == .bearer(token: "${env:SHAPES_OIDC_TOKEN}"))
    #expect(auth("implicit") == .bearer(token: "${env:SHAPES_BROWSER_TOKEN}"))
    // No usable scheme: called without auth, and said so; an alternative apx can use is taken.
    #expect(auth("digest") == nil)
    #expect(auth("either") == .bearer(token: "${env:SHAPES_JWT_TOKEN}"))
    #expect(auth("optional") == nil)  // `{}`: auth is optional, and the API has none
    #expect(report.notes.contains { $0.contains("OpenID Connect") && $0.contains("SHAPES_OIDC_TOKEN") })
    #expect(report.notes.contains { $0.contains("implicit") && $0.contains("SHAPES_BROWSER_TOKEN") })
    #expect(report.notes.contains { $0.contains("digest") && $0.contains("not supported") })
    #expect(report.notes.contains { $0.contains("no usable auth for GET /digest") })
    #expect(report.environmentVariables.contains("SHAPES_CKEY_API_KEY"))
  }
}
