import APXDemoServer
import Foundation
import Testing

/// An imported `apiKey` scheme `in: cookie` and a cookie parameter travel in one Cookie
/// header (RFC 6265 5.4); neither replaces the other.
@Suite("apx import: a cookie API key beside cookie parameters")
struct ImportCookieKeyTests {
  @Test func theKeyAndTheParameterShareOneCookieHeader() async throws {
    try await withDemoServer { server in
      let document = """
        {"openapi": "3.0.3", "info": {"title": "Jar", "version": "1"},
         "servers": [{"url": "\(server.httpBaseURL)/_demo/echo"}],
         "security": [{"session": []}],
         "paths": {"/me": {"get": {"operationId": "me",
           "parameters": [{"name": "theme", "in": "cookie", "schema": {"type": "string"}}],
           "responses": {"200": {"description": "ok"}}}}},
         "components": {"securitySchemes": {"session": {"type": "apiKey", "in": "cookie", "name": "sid"}}}}
        """
      let source = try temporaryFile("jar.json", document)
      let folder = (source as NSString).deletingLastPathComponent
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let imported = try await APXProcess.run(["import", "openapi", source, "--out", folder + "/Endpoints"])
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stderr.contains("JAR_API_KEY"), "\(imported.stderr)")
      let call = try await APXProcess.run(
        ["call", "jar.me", "theme=dark"], environment: ["APX_REGISTRY": folder + "/Endpoints", "JAR_API_KEY": "s3cret"])
      #expect(call.status == 0, "\(call.stderr)")
      let echoed = try JSONSerialization.jsonObject(with: Data(call.stdout.utf8)) as? [String: Any]
      let cookies = (echoed?["headers"] as? [[String]] ?? []).filter { $0.first?.lowercased() == "cookie" }
      #expect(cookies.map { $0.last ?? "" } == ["sid=s3cret; theme=dark"], "\(call.stdout)")
    }
  }
}
