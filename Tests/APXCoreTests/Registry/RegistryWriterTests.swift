import APXCore
import Foundation
import Testing

/// `RegistryWriter` output loads back to the same values, is stable, and
/// `RegistryTextEditor` adds an endpoint without touching the rest of a file.
@Suite struct RegistryWriterTests {
  static let endpoints = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Endpoints")

  static func shippedFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: endpoints, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" && $0.lastPathComponent != "registry.schema.json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// Writing, loading and writing again gives the same bytes, and the loaded
  /// values equal the original's (compared through the writer's JSON value,
  /// which holds every field the loader reads).
  @Test func shippedFilesRoundTrip() throws {
    let files = try Self.shippedFiles()
    #expect(files.count >= 3)
    for file in files {
      let original = try RegistryLoader.load([UInt8](Data(contentsOf: file)), file: file.lastPathComponent)
      let text = RegistryWriter.text(original)
      let reloaded = try RegistryLoader.load(Array(text.utf8), file: file.lastPathComponent)
      #expect(RegistryWriter.value(reloaded) == RegistryWriter.value(original), "\(file.lastPathComponent)")
      #expect(RegistryWriter.text(reloaded) == text, "\(file.lastPathComponent) is not written stably")
      #expect(reloaded.endpoints.map(\.name) == original.endpoints.map(\.name))
      #expect(reloaded.environments == original.environments)
      #expect(reloaded.auth == original.auth)
      #expect(reloaded.retry == original.retry)
      for (a, b) in zip(original.endpoints, reloaded.endpoints) {
        #expect(a.params == b.params, "\(a.name)")
        #expect(a.sse == b.sse && a.grpc == b.grpc && a.expectStatus == b.expectStatus, "\(a.name)")
        #expect(a.jsonrpc == b.jsonrpc, "\(a.name)")
        #expect(a.pagination == b.pagination, "\(a.name)")
      }
    }
    // The shipped files page in every style, so the comparison above covers each.
    let styles = try files.flatMap {
      try RegistryLoader.load([UInt8](Data(contentsOf: $0)), file: $0.lastPathComponent).endpoints.compactMap {
        $0.pagination?.style.name
      }
    }
    #expect(Set(styles) == ["link", "cursor", "page"])
  }

  /// Every key an endpoint of a shipped file sets is written back (none is dropped because the
  /// writer does not know it); only a key set to its default may be left out.
  @Test func shippedEndpointsKeepEveryKeyTheyHave() throws {
    for file in try Self.shippedFiles() {
      let bytes = [UInt8](try Data(contentsOf: file))
      let original = try JSONParser.parse(bytes)
      let written = try JSONParser.parse(
        Array(RegistryWriter.text(try RegistryLoader.load(bytes, file: file.lastPathComponent)).utf8))
      for member in original["endpoints"]?.objectMembers ?? [] {
        let before = Set(member.value.objectMembers?.map(\.key) ?? [])
        let after = Set(written["endpoints"]?[member.key]?.objectMembers?.map(\.key) ?? [])
        #expect(
          before.subtracting(after).isEmpty,
          "\(file.lastPathComponent) \(member.key) loses \(before.subtracting(after))")
      }
    }
  }

  @Test func paginationIsWrittenWithoutItsDefaults() throws {
    var e = Endpoint(name: "items.list", options: .rest(HTTPRoute(path: "/items")))
    e.params = [Param(name: "page", location: .query, type: .integer)]
    e.options = .rest(
      e.options.route,
      pagination: Pagination(style: .page(param: "page", start: 1, hasNext: nil), items: try JSONPath(parsing: ".data"))
    )
    #expect(
      RegistryWriter.endpoint(e)["pagination"]
        == .object([
          JSONMember("style", .string("page")), JSONMember("items", .string(".data")),
          JSONMember("page_param", .string("page")),
        ]))
    e.options = .rest(
      e.options.route, pagination: Pagination(style: .page(param: "page", start: 0, hasNext: nil), maxPages: 5))
    var api = APIDefinition(name: "demo", sourceFile: "demo.json")
    api.environments = [NamedEnvironment(name: "local", baseURL: "http://127.0.0.1:8080")]
    api.endpoints = [e]
    let reloaded = try RegistryLoader.load(Array(RegistryWriter.text(api).utf8), file: "demo.json")
    #expect(reloaded.endpoints.first?.pagination == e.pagination)
  }

  /// gifs.json is already in the canonical layout: it is written back byte for byte.
  /// (books.json and classnotes.json differ only in key order and where hand
  /// formatting broke or joined lines; see RegistryLayout.)
  @Test func canonicalFileIsWrittenByteForByte() throws {
    let url = Self.endpoints.appendingPathComponent("gifs.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    let api = try RegistryLoader.load(Array(text.utf8), file: "gifs.json")
    #expect(RegistryWriter.text(api) == text)
  }

  @Test func layoutKeepsSmallBlocksOnOneLineAndBreaksLongOnes() {
    var api = APIDefinition(name: "demo", sourceFile: "demo.json")
    api.environments = [NamedEnvironment(name: "local", baseURL: "http://127.0.0.1:8080")]
    api.auth = .bearer(token: "${env:DEMO_TOKEN}")
    api.retry = RetryConfig(maxAttempts: 3)
    var e = Endpoint(name: "items.get", options: .rest(HTTPRoute(method: "GET", path: "/items/{id}")))
    e.params = [
      Param(name: "id", location: .path, required: true),
      Param(
        name: "q", location: .query, description: String(repeating: "long text ", count: 12),
        allowed: [.string("a"), .string("b")]),
    ]
    api.endpoints = [e]
    let text = RegistryWriter.text(api)
    #expect(
      text == """
        {
          "api": "demo",
          "environments": {
            "local": {
              "base_url": "http://127.0.0.1:8080"
            }
          },
          "auth": { "type": "bearer", "token": "${env:DEMO_TOKEN}" },
          "retry": {
            "max_attempts": 3
          },
          "endpoints": {
            "items.get": {
              "kind": "rest",
              "method": "GET",
              "path": "/items/{id}",
              "params": {
                "id": { "in": "path", "required": true },
                "q": {
                  "in": "query",
                  "enum": ["a", "b"],
                  "description": "\(String(repeating: "long text ", count: 12))"
                }
              }
            }
          }
        }

        """)
    // Only a line holding one long scalar may exceed the width; joined blocks never do.
    #expect(text.split(separator: "\n").filter { $0.contains("{ ") }.allSatisfy { $0.count <= RegistryLayout.width })
  }

  @Test func everyAuthAndOptionRoundTrips() throws {
    let auths: [AuthConfig] = [
      .none, .bearer(token: "${env:T}"), .apiKey(location: .query, name: "key", value: "${env:K}"),
      .basic(username: "u", password: "${env:P}"),
      .oauth2ClientCredentials(
        OAuth2Config(
          tokenURL: "/token", clientID: "${env:ID}", clientSecret: "${env:S}", scopes: ["a", "b"], audience: "aud",
          extraFields: [HeaderField("resource", "r")])),
      .tokenCommand(command: ["gh", "auth", "token"], lifetime: 300),
    ]
    for auth in auths {
      var api = APIDefinition(name: "a", sourceFile: "a.json")
      api.auth = auth
      let watching = SSEOptions(
        untilEvent: ["done"], failOnEvent: ["error"], reconnect: ReconnectConfig(delays: [0.5, 2], maxFailures: 4),
        fallback: PollFallback(poll: "get", interval: 2.5, until: ".s", equals: [.string("ok")]),
        progress: ProgressFields(fraction: ".f"))
      var sse = Endpoint(name: "watch", options: .sse(HTTPRoute(path: "/w/{id}"), watching))
      sse.params = [Param(name: "id", location: .path, required: true)]
      var get = Endpoint(name: "get", options: .rest(HTTPRoute(method: "POST", path: "/g")), bodyEncoding: .multipart)
      get.params = [
        Param(name: "file", location: .multipart, type: .file, required: true, contentType: "image/png"),
        Param(name: "n", location: .query, type: .integer, defaultValue: .number("18446744073709551616")),
        Param(name: "secret", location: .header, secret: true, wireName: "X-Secret"),
      ]
      get.idempotent = true
      get.idempotencyKey = true
      get.timeout = 1.5
      get.expectStatus = [200, 201]
      get.retry = RetryConfig(initialDelay: 0.1, multiplier: 2, maxDelay: 1, jitter: false, onStatus: [503])
      get.headers = [HeaderField("Accept", "application/json")]
      get.auth = auth == .none ? nil : AuthConfig.none
      let rpc = Endpoint(
        name: "rpc",
        options: .grpc(
          GRPCOptions(
            service: "a.v1.S", method: "Get", schema: .protoFiles(files: ["a.proto"], importPaths: ["protos"]),
            retryableCodes: ["UNAVAILABLE"], progress: ProgressFields(done: ".n", total: ".of"))))
      api.endpoints = [sse, get, rpc]
      let text = RegistryWriter.text(api)
      let back = try RegistryLoader.load(Array(text.utf8), file: "a.json")
      #expect(back.auth == auth)
      #expect(RegistryWriter.text(back) == text)
      #expect(back.endpoints[0].sse == sse.sse)
      #expect(back.endpoints[1].params == get.params)
      #expect(back.endpoints[2].grpc == rpc.grpc)
    }
  }

  @Test func addingAnEndpointKeepsTheRestOfTheTextAsItWas() throws {
    let url = Self.endpoints.appendingPathComponent("books.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    var e = Endpoint(name: "health.get", options: .rest(HTTPRoute(method: "GET", path: "/healthz")))
    e.params = [Param(name: "verbose", location: .query, type: .boolean)]
    let edited = try RegistryTextEditor.adding(e, to: text, file: "books.json")
    let api = try RegistryLoader.load(Array(edited.utf8), file: "books.json")
    #expect(api.endpoints.last?.name == "health.get")
    #expect(api.endpoints.last?.params == e.params)
    // Everything before the insertion point and the closing lines are unchanged.
    let lastEntryEnd = text.range(of: "\n    }\n  }\n}\n", options: .backwards)!.lowerBound
    let prefix = String(text[..<text.index(lastEntryEnd, offsetBy: 6)])
    #expect(edited.hasPrefix(prefix))
    #expect(edited.hasSuffix("\n  }\n}\n"))
    #expect(
      edited.contains(
        """
            "health.get": {
              "kind": "rest",
              "method": "GET",
              "path": "/healthz",
              "params": {
                "verbose": { "in": "query", "type": "boolean" }
              }
            }
        """))
  }

  @Test func addingToAnEmptyEndpointsObjectAndRefusingDuplicates() throws {
    let text = "{\n  \"api\": \"x\",\n  \"endpoints\": {}\n}\n"
    let e = Endpoint(name: "ping", options: .rest(HTTPRoute(method: "GET", path: "/ping")))
    let edited = try RegistryTextEditor.adding(e, to: text, file: "x.json")
    #expect(
      edited
        == "{\n  \"api\": \"x\",\n  \"endpoints\": {\n    \"ping\": {\n      \"kind\": \"rest\",\n      \"method\": \"GET\",\n      \"path\": \"/ping\"\n    }\n  }\n}\n"
    )
    #expect(throws: APXError.self) { try RegistryTextEditor.adding(e, to: edited, file: "x.json") }
    #expect(throws: APXError.self) { try RegistryTextEditor.adding(e, to: "{\"api\": \"x\"}", file: "x.json") }
    #expect(throws: APXError.self) { try RegistryTextEditor.adding(e, to: "{\"api\": ", file: "x.json") }
  }
}
