import APXTestSupport
import Foundation
import Testing

/// Descriptions split over several files: `$ref`s into other files are followed (DigitalOcean's
/// real description, about 2,900 files), and one that cannot be followed stops the import and
/// `apx mock --openapi` with exit 3, naming the file, the line and the reference.
@Suite("apx import: references into other files")
struct ImportExternalRefTests {
  /// DigitalOcean's description unpacked into `dir`; returns the root file.
  static func digitalOcean(into dir: URL) async throws -> String {
    let archive = ImportTests.fixtures.appendingPathComponent("digitalocean-api-specification.tar.gz").path
    let tar = try await ChildProcess.run(
      "/bin/sh", ["-c", "tar -xzf \"$0\" -C \"$1\"", archive, dir.path],
      environment: ProcessInfo.processInfo.environment, timeout: 120)
    guard tar.status == 0, !tar.signaled else { throw SSEWatchTests.TestFailure("tar failed: \(tar.stderr)") }
    return dir.appendingPathComponent("digitalocean-openapi/specification/DigitalOcean-public.v2.yaml").path
  }

  static func write(_ files: [String: String], in dir: URL) throws {
    for (name, text) in files {
      let url = dir.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }

  static func registry(_ file: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
  }

  /// Every operation of the split description is imported with what its own file says:
  /// the operationId names it, its parameters and body come from other files.
  @Test func digitalOceansSplitDescriptionImportsWhole() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = try await Self.digitalOcean(into: dir)
    let out = dir.appendingPathComponent("out")
    let r = try await APXProcess.run(
      ["import", "openapi", root, "--api", "digitalocean", "--out", out.path], timeout: 300)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(try ImportTests.json(r.stdout)["endpoints"] as? Int == 659)
    #expect(try ImportTests.json(r.stdout)["skipped"] as? Int == 0)
    let registry = try Self.registry(out.appendingPathComponent("digitalocean.json"))
    let endpoints = try #require(registry["endpoints"] as? [String: [String: Any]])
    // Names from the operationIds in the operation files, not from the paths.
    let list = try #require(endpoints["one-clicks-list"])
    let listParams = try #require(list["params"] as? [String: [String: Any]])
    #expect(listParams["type"]?["in"] as? String == "query")
    let get = try #require(endpoints["ssh-keys-get"])
    #expect((get["params"] as? [String: [String: Any]])?["ssh_key_identifier"]?["in"] as? String == "path")
    let create = try #require(endpoints["droplets-create"])
    #expect(create["body_example"] != nil)
    let withParams = endpoints.values.filter { ($0["params"] as? [String: Any])?.isEmpty == false }
    #expect(withParams.count > 600)
    // Schemas of other files are named registry schemas.
    let schemas = try #require(registry["schemas"] as? [String: Any])
    #expect(schemas["droplet"] != nil)
    #expect(schemas["error"] != nil)
  }

  /// A small split description: a path item, an operation, a parameter and schemas in other
  /// files, references back into the root and between files, and a cycle of schemas across two files.
  static let split: [String: String] = [
    "api/root.yaml": """
    openapi: 3.0.3
    info: {title: Split, version: "1"}
    paths:
      /pets:
        $ref: paths/pets.yaml
      /pets/{id}:
        get:
          $ref: "operations/get-pet.yaml"
    components:
      schemas:
        Id: {type: integer, minimum: 1}
    """,
    "api/paths/pets.yaml": """
    get:
      operationId: listPets
      parameters:
        - $ref: '../common.yaml#/parameters/limit'
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '../models/Pet.yaml'}
    """,
    "api/operations/get-pet.yaml": """
    operationId: getPet
    parameters:
      - name: id
        in: path
        required: true
        schema: {$ref: '../root.yaml#/components/schemas/Id'}
    responses:
      '200':
        description: ok
        content:
          application/json:
            schema: {$ref: '../models/Pet.yaml'}
    """,
    "api/common.yaml": """
    parameters:
      limit:
        name: limit
        in: query
        schema: {type: integer, maximum: 100}
    """,
    "api/models/Pet.yaml": """
    type: object
    properties:
      name: {type: string}
      owner: {$ref: 'Owner.yaml'}
    example: {name: "rex", $ref: 'this is example data, not a reference'}
    """,
    "api/models/Owner.yaml": """
    type: object
    properties:
      pets:
        type: array
        items: {$ref: './Pet.yaml'}
    """,
  ]

  @Test func aSplitDescriptionWithACycleImportsWithNamedSchemas() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.write(Self.split, in: dir)
    let out = dir.appendingPathComponent("out")
    let r = try await APXProcess.run(
      ["import", "openapi", dir.appendingPathComponent("api/root.yaml").path, "--out", out.path], timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let registry = try Self.registry(out.appendingPathComponent("split.json"))
    let endpoints = try #require(registry["endpoints"] as? [String: [String: Any]])
    let list = try #require(endpoints["list-pets"])
    let limit = try #require((list["params"] as? [String: [String: Any]])?["limit"])
    #expect(limit["type"] as? String == "integer")
    #expect(limit["maximum"] as? Int == 100)
    let getPet = try #require(endpoints["get-pet"])
    let id = try #require((getPet["params"] as? [String: [String: Any]])?["id"])
    #expect(id["minimum"] as? Int == 1)
    let schemas = try #require(registry["schemas"] as? [String: [String: Any]])
    #expect(Set(schemas.keys) == ["Pet", "Owner"])
    let owner = try #require(schemas["Pet"]?["properties"] as? [String: [String: Any]])
    #expect(owner["owner"]?["$ref"] as? String == "#/schemas/Owner")
    // The registry loads and describes (the cycle stays a reference).
    let d = try await APXProcess.run(["describe", "split.get-pet", "--registry", out.path], timeout: 60)
    #expect(d.status == 0, "\(d.stderr)")
  }

  @Test func aMissingFileStopsTheImportNamingTheFileLineAndReference() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var files = Self.split
    files["api/models/Owner.yaml"] = nil
    try Self.write(files, in: dir)
    let root = dir.appendingPathComponent("api/root.yaml").path
    for command in [
      ["import", "openapi", root, "--out", dir.appendingPathComponent("out").path], ["mock", "--openapi", root],
    ] {
      let r = try await APXProcess.run(command, timeout: 60)
      #expect(r.status == 3, "\(command): \(r.stderr)")
      #expect(r.stderr.contains("models/Pet.yaml:4:1: error: the reference Owner.yaml cannot be read"), "\(r.stderr)")
      #expect(r.stderr.contains("hint: check that"), "\(r.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
  }

  @Test func aFragmentThatIsNotThereStopsTheImport() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var files = Self.split
    files["api/paths/pets.yaml"] = files["api/paths/pets.yaml"]?.replacingOccurrences(
      of: "#/parameters/limit", with: "#/parameters/size")
    try Self.write(files, in: dir)
    let r = try await APXProcess.run(
      ["import", "openapi", dir.appendingPathComponent("api/root.yaml").path, "--out", dir.path], timeout: 60)
    #expect(r.status == 3)
    #expect(
      r.stderr.contains("paths/pets.yaml:4:1: error: the reference ../common.yaml#/parameters/size"), "\(r.stderr)")
    #expect(r.stderr.contains("does not have"), "\(r.stderr)")
  }

  /// A reference into a URL is followed only with --allow-remote-refs (or from a URL document),
  /// and relative references inside what it fetched resolve against that URL.
  @Test func remoteReferencesNeedTheFlag() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let served: HostileHTTPServer.Answer = { head in
      let body =
        head.hasPrefix("GET /models/pet.yaml ")
        ? "type: object\nproperties:\n  tag: {$ref: 'tag.yaml'}\n"
        : head.hasPrefix("GET /models/tag.yaml ") ? "type: string\nmaxLength: 8\n" : nil
      guard let body else { return HostileHTTPServer.response("404 Not Found", body: Array("no".utf8)) }
      return HostileHTTPServer.response(headers: [("Content-Type", "application/yaml")], body: Array(body.utf8))
    }
    try await withHostileServer(served) { server in
      let root = dir.appendingPathComponent("root.yaml")
      try Data(
        """
        openapi: 3.0.3
        info: {title: Remote, version: "1"}
        paths:
          /pets:
            post:
              operationId: addPet
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '\(server.baseURL)/models/pet.yaml'}
              responses: {'201': {description: created}}
        """.utf8
      ).write(to: root)
      let out = dir.appendingPathComponent("out")
      let refused = try await APXProcess.run(["import", "openapi", root.path, "--out", out.path], timeout: 60)
      #expect(refused.status == 3)
      #expect(
        refused.stderr.contains("root.yaml:10:1: error: the reference \(server.baseURL)/models/pet.yaml is a URL"))
      #expect(refused.stderr.contains("--allow-remote-refs"))
      let allowed = try await APXProcess.run(
        ["import", "openapi", root.path, "--out", out.path, "--allow-remote-refs"], timeout: 60)
      #expect(allowed.status == 0, "\(allowed.stderr)")
      let registry = try Self.registry(out.appendingPathComponent("remote.json"))
      let schemas = try #require(registry["schemas"] as? [String: [String: Any]])
      #expect(schemas["tag"]?["maxLength"] as? Int == 8)
    }
  }

  /// A reference's credentials (a password, an access_token) are masked in the error.
  @Test func aRefusedReferenceDoesNotShowItsCredentials() async throws {
    let dir = try ImportTests.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = dir.appendingPathComponent("r.yaml")
    try Data(
      "openapi: 3.0.3\ninfo: {title: M, version: '1'}\npaths:\n  /a:\n    get:\n      $ref: 'http://u:hunter2@127.0.0.1:9/op.yaml?access_token=s3cr3t'\n"
        .utf8
    ).write(to: root)
    let r = try await APXProcess.run(["import", "openapi", root.path, "--out", dir.path], timeout: 60)
    #expect(r.status == 3)
    #expect(r.stderr.contains("http://u:***@127.0.0.1:9/op.yaml?access_token=***"), "\(r.stderr)")
    #expect(!r.stderr.contains("hunter2") && !r.stderr.contains("s3cr3t"))
  }

  @Test func allowRemoteRefsWithoutOpenAPIIsAUsageError() async throws {
    let r = try await APXProcess.run(["mock", "--allow-remote-refs", "--registry", "/nonexistent"], timeout: 60)
    #expect(r.status == 2)
    #expect(r.stderr.contains("--allow-remote-refs applies only to --openapi"))
  }
}
