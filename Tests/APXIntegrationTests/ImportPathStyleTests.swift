import APXDemoServer
import Foundation
import Testing

/// Path parameters of an imported description reach the server the way its `style` and
/// `explode` say: imported with the real binary, called against the demo's echo route.
@Suite("apx import: path parameter styles on the wire")
struct ImportPathStyleTests {
  static func description(server: String) -> String {
    func param(_ name: String, _ style: String, _ explode: Bool, _ type: String) -> String {
      """
      {"name": "\(name)", "in": "path", "required": true, "style": "\(style)", "explode": \(explode),
       "schema": {"type": "\(type)"\(type == "array" ? #", "items": {"type": "string"}"# : "")}}
      """
    }
    return """
      {"openapi": "3.1.0", "info": {"title": "Styles", "version": "1"},
       "servers": [{"url": "\(server)/_demo/echo"}],
       "paths": {"/s/{a}/{b}/l/{c}/{d}/m/{e}/{f}/p/{g}": {"get": {"operationId": "styles",
         "parameters": [
           \(param("a", "simple", false, "array")), \(param("b", "simple", true, "object")),
           \(param("c", "label", false, "array")), \(param("d", "label", true, "object")),
           \(param("e", "matrix", false, "object")), \(param("f", "matrix", true, "array")),
           \(param("g", "simple", false, "string"))],
         "responses": {"200": {"description": "the request as received"}}}}}}
      """
  }

  @Test func eachStyleIsSentAsTheDocumentSays() async throws {
    try await withDemoServer { server in
      let source = try temporaryFile("styles.json", Self.description(server: server.httpBaseURL))
      let out = (source as NSString).deletingLastPathComponent + "/Endpoints"
      defer { try? FileManager.default.removeItem(atPath: (source as NSString).deletingLastPathComponent) }
      let imported = try await APXProcess.run(["import", "openapi", source, "--out", out])
      #expect(imported.status == 0, "\(imported.stderr)")
      let call = try await APXProcess.run(
        [
          "call", "styles.styles", #"a:=["x","y z"]"#, #"b:={"R":1,"G":"2"}"#, #"c:=["x","y"]"#, #"d:={"R":1}"#,
          #"e:={"R":1,"G":2}"#, #"f:=["x","y/z"]"#, "g=a b/c,d",
        ], environment: ["APX_REGISTRY": out])
      #expect(call.status == 0, "\(call.stderr)")
      let echoed = try JSONSerialization.jsonObject(with: Data(call.stdout.utf8)) as? [String: Any]
      #expect(
        echoed?["path"] as? String
          == "/_demo/echo/s/x,y%20z/R=1,G=2/l/.x,y/.R=1/m/;e=R,1,G,2/;f=x;f=y%2Fz/p/a%20b%2Fc%2Cd",
        "\(call.stdout)")
    }
  }
}
