import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx import openapi|grpc`, run as a real process: the real documents in
/// Tests/Fixtures/openapi import, load and match the registry schema, re-import
/// byte for byte, and an import of the demo backend's own description calls
/// it end to end (OAuth2 token, multipart upload, SSE watch).
@Suite("apx import")
struct ImportTests {
  /// Real API descriptions written by others (sources and licences in its README.md).
  static let fixtures = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/openapi")

  static func temporaryDirectory() throws -> URL {
    let dir = TestScratch.root.appendingPathComponent("apx-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// The fixture documents, the gzipped one decompressed into `dir` with `gzip -dc`.
  static func documents(into dir: URL) async throws -> [(name: String, path: String)] {
    let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter {
      $0.hasSuffix(".json") || $0.hasSuffix(".yaml") || $0.hasSuffix(".json.gz")
    }.sorted()
    var out: [(String, String)] = []
    for file in files {
      var path = fixtures.appendingPathComponent(file).path
      if file.hasSuffix(".gz") {
        let target = dir.appendingPathComponent(String(file.dropLast(3)))
        let gzip = try await ChildProcess.run(
          "/bin/sh", ["-c", "gzip -dc \"$0\" > \"$1\"", path, target.path],
          environment: ProcessInfo.processInfo.environment, timeout: 120)
        guard gzip.status == 0, !gzip.signaled else { throw SSEWatchTests.TestFailure("gzip -dc \(path) failed") }
        path = target.path
      }
      let name = String(file.split(separator: ".").first ?? "api").replacingOccurrences(of: "_", with: "-")
      out.append((name, path))
    }
    return out
  }

  static func json(_ text: String) throws -> [String: Any] {
    guard let line = text.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { throw SSEWatchTests.TestFailure("not a JSON line: \(text)") }
    return object
  }

  /// GitHub's description as stored (gzip-compressed) imports as it does decompressed, byte for byte.
  @Test func aGzippedDescriptionImportsAsItsDecompressedCopy() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gz = try #require(
      try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).first { $0.hasPrefix("github-api") })
    let decompressed = try #require(
      try await Self.documents(into: dir).first { $0.name == "github-api" && $0.path.hasPrefix(dir.path) })
    var written: [Data] = []
    for (i, source) in [Self.fixtures.appendingPathComponent(gz).path, decompressed.path].enumerated() {
      let out = dir.appendingPathComponent("out\(i)")
      let r = try await APXProcess.run(["import", "openapi", source, "--api", "gh", "--out", out.path], timeout: 120)
      #expect(r.status == 0, "\(source): \(r.stderr)")
      #expect(try Self.json(r.stdout)["endpoints"] as? Int == 874)
      written.append(try Data(contentsOf: out.appendingPathComponent("gh.json")))
    }
    #expect(written[0] == written[1])
  }

  /// A URL that serves the gzip file itself (application/gzip, no Content-Encoding).
  @Test func aGzippedDescriptionServedAsAFileImportsFromItsURL() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gz = try #require(
      try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).first { $0.hasPrefix("github-api") })
    let bytes = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(gz)))
    let served: HostileHTTPServer.Answer = { _ in
      HostileHTTPServer.response(headers: [("Content-Type", "application/gzip")], body: bytes)
    }
    let r = try await withHostileServer(served) { server in
      try await APXProcess.run(
        ["import", "openapi", server.baseURL + "/api.github.com.json.gz", "--api", "gh", "--out", dir.path],
        timeout: 120)
    }
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try Self.json(r.stdout)["endpoints"] as? Int == 874)
  }

  @Test func aTruncatedGzipFileIsRefusedWithExit3() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let gz = try #require(
      try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).first { $0.hasPrefix("github-api") })
    let whole = try Data(contentsOf: Self.fixtures.appendingPathComponent(gz))
    let cut = dir.appendingPathComponent("cut.json.gz")
    try whole.prefix(whole.count / 2).write(to: cut)
    let r = try await APXProcess.run(["import", "openapi", cut.path, "--out", dir.path], timeout: 120)
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("starts like a gzip file but cannot be inflated"), "\(r.stderr)")
  }

  @Test func everyFixtureDocumentImportsLoadsAndMatchesTheSchema() async throws {
    let work = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("Endpoints")
    let documents = try await Self.documents(into: work)
    #expect(documents.count == 8, "expected the eight documents of \(Self.fixtures.path)")
    // Operations per document (paths x methods), from Tests/Fixtures/openapi/README.md.
    let operations = [
      "oai-petstore-3": 3, "swagger-petstore-3": 19, "swagger-petstore-2": 20, "github-api": 874, "stripe-api": 417,
      "twilio-api": 197, "discord-api": 242,
    ]
    var written: [String] = []
    for (index, doc) in documents.enumerated() {
      let api = "doc\(index)-" + doc.name
      let r = try await APXProcess.run(["import", "openapi", doc.path, "--api", api, "--out", out.path], timeout: 120)
      #expect(r.status == 0, "\(doc.path): \(r.stderr)")
      let summary = try Self.json(r.stdout)
      #expect(summary["status"] as? String == "written", "\(doc.path)")
      let file = try #require(summary["file"] as? String)
      written.append(file)
      let endpoints = try #require(summary["endpoints"] as? Int)
      let skipped = try #require(summary["skipped"] as? Int)
      #expect(endpoints > 0, "\(doc.path): \(r.stderr)")
      if let count = operations.first(where: { doc.name.hasPrefix($0.key) })?.value,
        !doc.path.hasSuffix("3.1.yaml")
      {
        // Every operation is either an endpoint or listed as skipped.
        #expect(endpoints + skipped >= count, "\(doc.path): \(r.stderr)")
      }
      #expect(r.stderr.contains("\(endpoints) endpoint"), "\(r.stderr)")
      // Re-importing the same document writes nothing new: the bytes are identical.
      let again = try await APXProcess.run(
        ["import", "openapi", doc.path, "--api", api, "--out", out.path], timeout: 120)
      #expect(again.status == 0, "\(again.stderr)")
      #expect(try Self.json(again.stdout)["status"] as? String == "unchanged", "\(doc.path) is not imported stably")
    }
    // describe shows a JSON body template built from the schema (or the document's example).
    let github = "doc\(try #require(documents.firstIndex { $0.name.hasPrefix("github-api") }))-github-api"
    let describe = try await APXProcess.run(["describe", "\(github).issues.create", "--registry", out.path])
    #expect(describe.status == 0, "\(describe.stderr)")
    #expect(describe.stdout.contains("\"body_example\""), "\(describe.stdout)")
    #expect(describe.stdout.contains("apx call \(github).issues.create -d"), "\(describe.stdout)")
    let validate = try await APXProcess.run(["validate", out.path], timeout: 120)
    #expect(validate.status == 0, "\(validate.stdout)\n\(validate.stderr)")
    let problems = try await SchemaValidator.problems(schema: RegistrySchemaTests.schema, files: written)
    for file in written {
      #expect(problems[file] == nil, "\(file) does not match the schema:\n\(problems[file] ?? "")")
    }
  }

  /// Stripe's form bodies declare `style: deepObject, explode: true` in their `encoding`: the
  /// import keeps it, and a call sends `metadata[foo]=bar&expand[]=tax`, as Stripe reads it.
  @Test func stripesFormEncodingsAreImportedAndSent() async throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let document = Self.fixtures.appendingPathComponent("stripe-api.spec3-2022-04-12.json.gz").path
    let r = try await APXProcess.run(["import", "openapi", document, "--out", dir.path], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let file = dir.appendingPathComponent("stripe-api.json")
    let registry = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let endpoints = try #require(registry["endpoints"] as? [String: Any])
    let customers = try #require(endpoints["post-customers"] as? [String: Any])
    #expect(customers["body"] as? String == "form")
    let params = try #require(customers["params"] as? [String: [String: Any]])
    for name in ["metadata", "expand", "address"] {
      #expect(params[name]?["in"] as? String == "form", "\(name): \(params[name] ?? [:])")
      #expect(params[name]?["style"] as? String == "deepObject", "\(name): \(params[name] ?? [:])")
      #expect(params[name]?["explode"] as? Bool == true, "\(name): \(params[name] ?? [:])")
    }
    #expect(params["expand"]?["type"] as? String == "array")
    #expect(params["email"] != nil && params["email"]?["style"] == nil, "a field without an encoding has no style")
    try await withDemoServer { server in
      let options = ["--registry", dir.path, "--base-url", server.httpBaseURL + "/_demo/echo", "--no-auth"]
      // The call of the report: it sent metadata=%7B%22foo%22...&expand=tax.
      let whole = try await APXProcess.run(
        ["call", "stripe-api.post-customers", #"metadata:={"foo":"bar"}"#, "expand=tax"] + options)
      #expect(whole.status == 0, "\(whole.stderr)")
      let echo = try AdHocCallTests.Echo(whole.stdout)
      #expect(echo.method == "POST" && echo.path == "/_demo/echo/v1/customers")
      #expect(echo.header("Content-Type") == ["application/x-www-form-urlencoded"])
      #expect(echo.body == "expand%5B%5D=tax&metadata%5Bfoo%5D=bar")
      let parts = try await APXProcess.run(
        ["call", "stripe-api.post-customers", "metadata[foo]=bar", "expand[]=tax", "address[city]=Berlin"] + options)
      #expect(parts.status == 0, "\(parts.stderr)")
      #expect(
        try AdHocCallTests.Echo(parts.stdout).body == "metadata%5Bfoo%5D=bar&expand%5B%5D=tax&address%5Bcity%5D=Berlin")
    }
  }

  @Test func fixtureDocumentsMapTheirDistinctiveParts() async throws {
    let work = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.path
    // Swagger 2.0: host + basePath + schemes, api_key header, a formData upload.
    let v2 = try await APXProcess.run([
      "import", "openapi", Self.fixtures.appendingPathComponent("swagger-petstore-2.0.json").path, "--out", out,
      "--api", "pets2",
    ])
    #expect(v2.status == 0, "\(v2.stderr)")
    let pets2 = try String(contentsOfFile: out + "/pets2.json", encoding: .utf8)
    #expect(pets2.contains("\"base_url\": \"http://petstore.swagger.io/v2\""), "\(pets2.prefix(800))")
    #expect(pets2.contains("\"upload-file\""))
    #expect(pets2.contains("\"type\": \"file\""))
    #expect(v2.stderr.contains("PETS2_"), "\(v2.stderr)")
    // 3.1: the webhook is listed as skipped; the relative server becomes an environment variable.
    let v31 = try await APXProcess.run([
      "import", "openapi", Self.fixtures.appendingPathComponent("swagger-petstore-3.1.yaml").path, "--out", out,
      "--api", "pets31",
    ])
    #expect(v31.status == 0, "\(v31.stderr)")
    #expect(v31.stderr.contains("webhook"), "\(v31.stderr)")
    #expect(v31.stderr.contains("PETS31_BASE_URL"), "\(v31.stderr)")
    // An existing, different file is not replaced without --force.
    let clash = try await APXProcess.run([
      "import", "openapi", Self.fixtures.appendingPathComponent("oai-petstore-3.0.yaml").path, "--out", out, "--api",
      "pets31",
    ])
    #expect(clash.status == 2, "\(clash.stderr)")
    #expect(clash.stderr.contains("--force"))
    let forced = try await APXProcess.run([
      "import", "openapi", Self.fixtures.appendingPathComponent("oai-petstore-3.0.yaml").path, "--out", out, "--api",
      "pets31", "--force",
    ])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try Self.json(forced.stdout)["status"] as? String == "replaced")
    let missing = try await APXProcess.run(["import", "openapi", out + "/nope.yaml", "--out", out])
    #expect(missing.status == 2, "\(missing.stderr)")
    let notOpenAPI = try temporaryFile("x.json", "{\"hello\": 1}")
    let bad = try await APXProcess.run(["import", "openapi", notOpenAPI, "--out", out])
    #expect(bad.status == 3, "\(bad.stderr)")
  }

  @Test func importTheDemoDescriptionThenCallItWithOAuthAndSSE() async throws {
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let work = try Self.temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: work) }
      let out = work.path
      let imported = try await APXProcess.run([
        "import", "openapi", server.httpBaseURL + "/openapi.json", "--out", out,
      ])
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stderr.contains("DEMO_CLIENT_ID"), "\(imported.stderr)")
      let env = ["APX_REGISTRY": out, "DEMO_CLIENT_ID": "demo-client", "DEMO_CLIENT_SECRET": "demo-secret"]
      let capabilities = try await APXProcess.run(["call", "demo.capabilities.get"], environment: env)
      #expect(capabilities.status == 0, "\(capabilities.stderr)")
      #expect(capabilities.stdout.contains("\"auth_required\":true"), "\(capabilities.stdout)")
      let csv = try temporaryFile("books.csv", "title,author\nA,B\nC,D\n")
      let created = try await APXProcess.run(
        ["call", "demo.imports.create", "file=@\(csv)", "row_delay_ms:=1"], environment: env)
      #expect(created.status == 0, "\(created.stderr)")
      let job = try #require(
        try Self.json(created.stdout.replacingOccurrences(of: "\n", with: ""))["job_id"] as? String)
      let watched = try await APXProcess.run(
        ["call", "demo.imports.watch", "job_id=\(job)"], environment: env, timeout: 60)
      #expect(watched.status == 0, "\(watched.stderr)")
      #expect(watched.stdout.contains("\"complete\""), "\(watched.stdout)")
      // `security: []` on the GIF operations: no token is sent, the key is a path parameter.
      let gifs = try await APXProcess.run(
        ["call", "demo.gifs.trending", "api_key=demo-key", "per_page:=2"], environment: ["APX_REGISTRY": out])
      #expect(gifs.status == 0, "\(gifs.stderr)")
      // A missing required parameter (the multipart file) is a usage error, as for any registry.
      let wrong = try await APXProcess.run(["call", "demo.imports.create"], environment: env)
      #expect(wrong.status == 2, "\(wrong.stderr)")
    }
  }

  /// `$schema` points at the registry JSON Schema only where one is beside the file.
  @Test func schemaReferenceOnlyWhereTheSchemaIs() async throws {
    let work = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: work) }
    let protoset = APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path
    let bare = try await APXProcess.run(["import", "grpc", protoset, "--out", work.path, "--api", "bare"])
    #expect(bare.status == 0, "\(bare.stderr)")
    #expect(!(try String(contentsOfFile: work.path + "/bare.json", encoding: .utf8)).contains("$schema"))
    try FileManager.default.copyItem(
      atPath: APXProcess.endpoints + "/registry.schema.json", toPath: work.path + "/registry.schema.json")
    let withSchema = try await APXProcess.run(["import", "grpc", protoset, "--out", work.path, "--api", "schemed"])
    #expect(withSchema.status == 0, "\(withSchema.stderr)")
    let text = try String(contentsOfFile: work.path + "/schemed.json", encoding: .utf8)
    #expect(text.contains("\"$schema\": \"./registry.schema.json\""), "\(text.prefix(200))")
  }

  @Test func grpcImportFromReflectionAndProtoset() async throws {
    try await withDemoServer { server in
      let work = try Self.temporaryDirectory()
      defer { try? FileManager.default.removeItem(at: work) }
      let out = work.path
      // --timeout 60: under the whole suite's load, reflection took over the 10 s default.
      let reflected = try await APXProcess.run(
        ["import", "grpc", server.grpcBaseURL, "--out", out, "--api", "notes", "--timeout", "60"])
      #expect(reflected.status == 0, "\(reflected.stderr)")
      let text = try String(contentsOfFile: out + "/notes.json", encoding: .utf8)
      #expect(text.contains("\"create-lesson\""), "\(text.prefix(600))")
      #expect(text.contains("\"reflection\": true"))
      let created = try await APXProcess.run(
        ["call", "notes.create-lesson", "lesson:={\"title\": \"Imported\"}"], environment: ["APX_REGISTRY": out])
      #expect(created.status == 0, "\(created.stderr)")
      #expect(created.stdout.contains("Imported"))
      let protoset = APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path
      let fromFile = try await APXProcess.run(["import", "grpc", protoset, "--out", out, "--api", "notes2"])
      #expect(fromFile.status == 0, "\(fromFile.stderr)")
      let text2 = try String(contentsOfFile: out + "/notes2.json", encoding: .utf8)
      #expect(text2.contains("\"protoset\": \""), "\(text2.prefix(600))")
      let listed = try await APXProcess.run(
        ["call", "notes2.list-lessons", "--base-url", server.grpcBaseURL], environment: ["APX_REGISTRY": out])
      #expect(listed.status == 0, "\(listed.stderr)")
      // A .proto with its import path (compiled by protoc, or grpcio-tools as .ci/run installs):
      // the schema is kept by reference, relative to the registry file.
      let protos = APXProcess.packageRoot.appendingPathComponent("Protos").path
      let fromProto = try await APXProcess.run([
        "import", "grpc", protos + "/classnotes/v1/classnotes.proto", "-I", protos, "--out", out, "--api", "notes3",
      ])
      #expect(fromProto.status == 0, "\(fromProto.stderr)")
      let text3 = try String(contentsOfFile: out + "/notes3.json", encoding: .utf8)
      #expect(text3.contains("classnotes/v1/classnotes.proto\"]"), "\(text3.prefix(600))")
      #expect(text3.contains("\"import_paths\": ["), "\(text3.prefix(600))")
      let fromProtoCall = try await APXProcess.run(
        ["call", "notes3.get-lesson", "id=les_0001", "--base-url", server.grpcBaseURL],
        environment: ["APX_REGISTRY": out])
      #expect(fromProtoCall.status == 0, "\(fromProtoCall.stderr)")
      #expect(fromProtoCall.stdout.contains("les_0001"), "\(fromProtoCall.stdout)")
    }
  }
}
