import APXCore
import APXTestSupport
import Foundation
import Testing

/// `apx mock --openapi` takes every request media type an operation declares, judging each
/// body by its own schema, and answers with the examples properties declare.
@Suite("apx mock: every declared request type, property examples", .timeLimit(.minutes(5)))
struct MockRequestMediaTypesTests {
  static let discord = ImportTests.fixtures.appendingPathComponent("discord-api-spec-openapi-3.1.json.gz").path

  /// Discord's invites take JSON, a form and multipart: the mock took only JSON ("body is not JSON").
  @Test func discordsFormAndMultipartBodiesAreTakenAsItsJSONIs() async throws {
    try await MockProcess.with(["--openapi", Self.discord]) { mock in
      let port = try mock.port()
      let auth = ["Authorization": "Bot any-token"]
      let json = try await LoopbackHTTP.request(
        port: port, "POST", "/channels/1/invites",
        headers: auth.merging(["Content-Type": "application/json"]) { a, _ in a },
        body: #"{"max_age": 60}"#)
      #expect(json.status == 200, "\(json.text)")
      let form = try await LoopbackHTTP.request(
        port: port, "POST", "/channels/1/invites",
        headers: auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }, body: "max_age=60")
      #expect(form.status == 200, "\(form.text)")
      let boundary = "apx-test-boundary"
      let multipart =
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"max_age\"\r\n\r\n60\r\n--\(boundary)--\r\n"
      let parts = try await LoopbackHTTP.request(
        port: port, "POST", "/channels/1/invites",
        headers: auth.merging(["Content-Type": "multipart/form-data; boundary=\(boundary)"]) { a, _ in a },
        body: multipart)
      #expect(parts.status == 200, "\(parts.text)")
      // Each type is still judged: a JSON body its schema refuses, and a type not declared.
      let wrong = try await LoopbackHTTP.request(
        port: port, "POST", "/channels/1/invites",
        headers: auth.merging(["Content-Type": "application/json"]) { a, _ in a },
        body: #"{"max_age": "soon"}"#)
      #expect(wrong.status == 400, "\(wrong.text)")
      let xml = try await LoopbackHTTP.request(
        port: port, "POST", "/channels/1/invites",
        headers: auth.merging(["Content-Type": "application/xml"]) { a, _ in a },
        body: "<invite/>")
      #expect(xml.status == 400, "\(xml.text)")
    }
  }

  /// An upload taken as a CSV text or as a multipart file (the layout of the demo's own
  /// description): the CSV went to the multipart check and was refused for a missing "file".
  @Test func aCSVTextAndAMultipartUploadAreBothTaken() async throws {
    let description = #"""
      {"openapi": "3.0.3", "info": {"title": "Up", "version": "1"},
       "paths": {"/imports": {"post": {"operationId": "createImport",
         "requestBody": {"required": true, "content": {
           "multipart/form-data": {"schema": {"type": "object", "required": ["file"], "properties": {"file": {"type": "string", "format": "binary"}}}},
           "text/csv": {"schema": {"type": "string"}}}},
         "responses": {"202": {"description": "accepted", "content": {"application/json": {"schema": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "example": "job_1"}}}}}}}}}}}
      """#
    let folder = TestScratch.root.appendingPathComponent("media-types-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("up.json")
    try Data(description.utf8).write(to: file)
    try await MockProcess.with(["--openapi", file.path]) { mock in
      let port = try mock.port()
      let csv = try await LoopbackHTTP.request(
        port: port, "POST", "/imports", headers: ["Content-Type": "text/csv"], body: "title\nDune\n")
      #expect(csv.status == 202, "\(csv.text)")
      #expect(csv.json?["id"]?.stringValue == "job_1", "\(csv.text)")
      let boundary = "b"
      let noFile = try await LoopbackHTTP.request(
        port: port, "POST", "/imports", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
        body: "--b\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nx\r\n--b--\r\n")
      #expect(noFile.status == 400 && noFile.text.contains("file"), "\(noFile.text)")
      let upload = try await LoopbackHTTP.request(
        port: port, "POST", "/imports", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
        body: "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\ntitle\r\n--b--\r\n")
      #expect(upload.status == 202, "\(upload.text)")
    }
    let out = folder.appendingPathComponent("out")
    let imported = try await APXProcess.run(["import", "openapi", file.path, "--api", "up", "--out", out.path])
    #expect(imported.status == 0, "\(imported.stderr)")
    let registry = try ImportExternalRefTests.registry(out.appendingPathComponent("up.json"))
    let endpoint = try #require((registry["endpoints"] as? [String: [String: Any]])?["create-import"], "\(registry)")
    let accepts = try #require(endpoint["accepts"] as? [[String: Any]], "\(endpoint)")
    #expect(accepts.map { $0["content_type"] as? String } == ["text/csv"])
  }

  /// DigitalOcean's models give each property an `example`: the import keeps them and the
  /// mock answers with them (it generated values, as the import dropped them).
  @Test func digitalOceansPropertyExamplesAreKeptAndServed() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = try await ImportExternalRefTests.digitalOcean(into: dir)
    let out = dir.appendingPathComponent("out")
    let r = try await APXProcess.run(
      ["import", "openapi", root, "--api", "digitalocean", "--out", out.path], timeout: 300)
    #expect(r.status == 0, "\(r.stderr)")
    let registry = try ImportExternalRefTests.registry(out.appendingPathComponent("digitalocean.json"))
    let droplet = try #require((registry["schemas"] as? [String: [String: Any]])?["droplet"])
    let id = try #require((droplet["properties"] as? [String: [String: Any]])?["id"])
    #expect(id["example"] as? Int == 3_164_444, "\(id)")
    try await MockProcess.with(["--openapi", root]) { mock in
      let answer = try await LoopbackHTTP.request(
        port: try mock.port(), "GET", "/v2/droplets/1", headers: ["Authorization": "Bearer any"])
      #expect(answer.status == 200, "\(answer.text)")
      #expect(answer.json?["droplet"]?["id"] == .int(3_164_444), "\(answer.text)")
      #expect(answer.json?["droplet"]?["name"]?.stringValue == "example.com", "\(answer.text)")
    }
  }
}
