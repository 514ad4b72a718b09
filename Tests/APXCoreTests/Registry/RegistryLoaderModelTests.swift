import APXCore
import Testing

/// A registry file that uses every feature loads into the expected model.
@Suite struct RegistryLoaderModelTests {
  static let everything = """
    {
      "$schema": "./registry.schema.json",
      "api": "books",
      "title": "BooksTrack V2 imports",
      "description": "CSV imports",
      "environments": {
        "demo": { "base_url": "http://127.0.0.1:8080", "description": "local" },
        "prod": { "base_url": "https://api.example.com/v2" },
        "env":  { "base_url": "${env:BOOKS_URL}" }
      },
      "default_environment": "prod",
      "headers": { "Accept": "application/json", "X-Client": "apx" },
      "auth": { "type": "oauth2_client_credentials", "token_url": "/oauth/token",
                "client_id": "${env:BOOKS_CLIENT_ID}", "client_secret": "${env:BOOKS_CLIENT_SECRET}",
                "scopes": ["imports:write", "imports:read"], "audience": "books",
                "extra_fields": { "resource": "imports" } },
      "retry": { "max_attempts": 4, "initial_delay": 0.5, "multiplier": 2, "max_delay": 30, "jitter": false,
                 "on_status": [429, 502, 503, 504], "on_grpc_codes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED"] },
      "endpoints": {
        "imports.create": {
          "kind": "rest", "method": "post", "path": "/api/v2/imports", "description": "upload a CSV",
          "params": {
            "csv": { "in": "body", "type": "file", "content_type": "text/csv", "required": true }
          },
          "expect_status": [202], "body": "raw", "idempotency_key": true, "timeout": 120,
          "retry": { "max_attempts": 2 }
        },
        "imports.status": {
          "kind": "rest", "path": "/api/v2/imports/{job_id}",
          "params": {
            "job_id": { "in": "path", "type": "string", "description": "the job" },
            "fields": { "type": "array", "name": "fields[]" },
            "verbose": { "in": "query", "type": "boolean", "default": false },
            "X-Request-Id": { "in": "header", "secret": true, "required": false },
            "mode": { "enum": ["fast", "full"], "default": "fast" }
          },
          "expect_status": 200, "idempotent": true, "auth": { "type": "none" },
          "headers": { "Accept": "application/vnd.books+json" }
        },
        "imports.watch": {
          "kind": "sse", "path": "/api/v2/imports/{job_id}/stream",
          "params": { "job_id": { "in": "path", "required": true } },
          "until_event": ["complete", "error"], "fail_on_event": "error",
          "reconnect": { "delays": [5, 10.5, 20], "max_failures": 4 },
          "fallback": { "poll": "imports.status", "interval": 2.5,
                        "until": ".status", "equals": ["complete", "failed"], "fail_when": "failed" },
          "progress": { "fraction": ".progress", "done": ".processed_rows", "total": ".total_rows" }
        },
        "lessons.create": {
          "kind": "grpc", "service": "classnotes.v1.ClassNotesAPI", "method": "CreateLesson",
          "schema": { "reflection": true },
          "params": { "title": { "required": true }, "minutes": { "type": "integer" } },
          "retry_codes": ["UNAVAILABLE"],
          "auth": { "type": "bearer", "token": "${env:LESSONS_TOKEN}" }
        },
        "lessons.list": {
          "kind": "grpc", "service": "classnotes.v1.ClassNotesAPI", "method": "ListLessons",
          "schema": { "protoset": "classnotes.protoset" },
          "auth": { "type": "token_command", "command": ["cloud-cli", "print-token"], "lifetime": 3000 }
        },
        "lessons.watch": {
          "kind": "grpc", "service": "classnotes.v1.ClassNotesAPI", "method": "WatchLesson",
          "schema": { "proto": ["classnotes.proto"], "import_paths": "protos" },
          "progress": { "fraction": ".fraction" }
        },
        "rpc.add": {
          "kind": "jsonrpc", "rpc_method": "add", "params_by": "position",
          "params": { "a": { "type": "number" }, "b": { "type": "number" } },
          "auth": { "type": "basic", "username": "admin", "password": "${env:PASS}" }
        },
        "gifs.search": {
          "kind": "rest", "method": "GET", "path": "/v1/{api_key}/gifs/search",
          "params": { "q": { "required": true }, "page": { "type": "integer", "default": 1 } },
          "auth": { "type": "api_key", "in": "path", "name": "api_key", "value": "${env:GIFS_KEY}" }
        },
        "form.send": {
          "kind": "rest", "method": "PUT", "path": "/form", "body": "form",
          "params": { "a": { "in": "form" }, "doc": { "in": "multipart", "type": "file" } },
          "auth": { "type": "api_key", "name": "X-API-Key", "value": "${env:KEY}" }
        }
      }
    }
    """

  let api: APIDefinition?

  init() {
    api = RegistryFixture.load(Self.everything, file: "Endpoints/books.json")
  }

  @Test func topLevel() throws {
    let api = try #require(api)
    #expect(api.name == "books")
    #expect(api.title == "BooksTrack V2 imports")
    #expect(api.sourceFile == "Endpoints/books.json")
    #expect(api.environments.map(\.name) == ["demo", "prod", "env"])
    #expect(api.environment(named: "prod")?.baseURL == "https://api.example.com/v2")
    #expect(api.environment(named: "env")?.baseURL == "${env:BOOKS_URL}")
    #expect(api.defaultEnvironment == "prod")
    #expect(api.headers == [HeaderField("Accept", "application/json"), HeaderField("X-Client", "apx")])
    #expect(
      api.auth
        == .oauth2ClientCredentials(
          OAuth2Config(
            tokenURL: "/oauth/token", clientID: "${env:BOOKS_CLIENT_ID}", clientSecret: "${env:BOOKS_CLIENT_SECRET}",
            scopes: ["imports:write", "imports:read"], audience: "books",
            extraFields: [HeaderField("resource", "imports")])))
    #expect(
      api.retry
        == RetryConfig(
          maxAttempts: 4, initialDelay: 0.5, multiplier: 2, maxDelay: 30, jitter: false,
          onStatus: [429, 502, 503, 504],
          onGRPCCodes: ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]))
    #expect(
      api.endpoints.map(\.name) == [
        "imports.create", "imports.status", "imports.watch", "lessons.create", "lessons.list", "lessons.watch",
        "rpc.add", "gifs.search", "form.send",
      ])
  }

  @Test func restFileUpload() throws {
    let e = try #require(api?.endpoint(named: "imports.create"))
    #expect(e.kind == .rest)
    #expect(e.method == "POST")  // written lower case, normalised
    #expect(e.path == "/api/v2/imports")
    #expect(e.description == "upload a CSV")
    #expect(e.params == [Param(name: "csv", location: .body, type: .file, required: true, contentType: "text/csv")])
    #expect(e.expectStatus == [202])
    #expect(e.bodyEncoding == .raw)
    #expect(e.idempotencyKey)
    #expect(!e.idempotent)
    #expect(e.timeout == 120)
    #expect(e.retry == RetryConfig(maxAttempts: 2))
    #expect(e.retry?.overriding(api?.retry).maxDelay == 30)
    #expect(e.auth == nil)
    #expect(e.sse == nil && e.grpc == nil)
  }

  @Test func restParams() throws {
    let e = try #require(api?.endpoint(named: "imports.status"))
    #expect(e.method == "GET")  // the default
    #expect(
      e.params == [
        Param(name: "job_id", location: .path, required: true, description: "the job"),
        Param(name: "fields", location: .query, type: .array, wireName: "fields[]"),
        Param(name: "verbose", location: .query, type: .boolean, defaultValue: .bool(false)),
        Param(name: "X-Request-Id", location: .header, secret: true),
        Param(
          name: "mode", location: .query, defaultValue: .string("fast"), allowed: [.string("fast"), .string("full")]),
      ])
    #expect(e.param(named: "fields")?.sentName == "fields[]")
    #expect(e.requiredParams.map(\.name) == ["job_id"])
    #expect(e.expectStatus == [200])
    #expect(e.idempotent)
    #expect(e.auth == AuthConfig.none)
    #expect(e.headers == [HeaderField("Accept", "application/vnd.books+json")])
  }

  @Test func sseOptions() throws {
    let e = try #require(api?.endpoint(named: "imports.watch"))
    #expect(e.kind == .sse)
    #expect(e.method == "GET")
    let sse = try #require(e.sse)
    #expect(sse.untilEvent == ["complete", "error"])
    #expect(sse.failOnEvent == ["error"])
    #expect(sse.reconnect == ReconnectConfig(delays: [5, 10.5, 20], maxFailures: 4))
    #expect(
      sse.fallback
        == PollFallback(
          poll: "imports.status", interval: 2.5, until: ".status", equals: [.string("complete"), .string("failed")],
          failWhen: [.string("failed")]))
    #expect(sse.progress == ProgressFields(fraction: ".progress", done: ".processed_rows", total: ".total_rows"))
  }

  @Test func sseDefaults() throws {
    let api = try #require(
      RegistryFixture.load(
        RegistryFixture.document(endpoints: #"    "w": { "kind": "sse", "path": "/s" }"#)))
    let sse = try #require(api.endpoints.first?.sse)
    #expect(sse == SSEOptions())
    #expect(sse.reconnect.delays == [5, 10, 20, 30])
    #expect(sse.reconnect.maxFailures == 3)
  }

  @Test func grpcEndpoints() throws {
    let api = try #require(api)
    let create = try #require(api.endpoint(named: "lessons.create"))
    #expect(create.kind == .grpc)
    // The gRPC method is stored once, in the options; on the wire the call is POST /service/method.
    #expect(create.method == "POST")
    #expect(create.path == "/classnotes.v1.ClassNotesAPI/CreateLesson")
    #expect(
      create.grpc
        == GRPCOptions(
          service: "classnotes.v1.ClassNotesAPI", method: "CreateLesson", schema: .reflection,
          retryableCodes: ["UNAVAILABLE"]))
    #expect(create.params.map(\.location) == [.message, .message])  // the gRPC default
    #expect(create.params.map(\.type) == [.string, .integer])
    #expect(create.params.first?.required == true)
    #expect(create.auth == .bearer(token: "${env:LESSONS_TOKEN}"))
    let list = try #require(api.endpoint(named: "lessons.list"))
    #expect(list.grpc?.schema == .protoset(path: "classnotes.protoset"))
    #expect(list.grpc?.retryableCodes == nil)
    #expect(list.auth == .tokenCommand(command: ["cloud-cli", "print-token"], lifetime: 3000))
    let watch = try #require(api.endpoint(named: "lessons.watch"))
    #expect(watch.grpc?.schema == .protoFiles(files: ["classnotes.proto"], importPaths: ["protos"]))
    #expect(watch.grpc?.progress == ProgressFields(fraction: ".fraction"))
    #expect(list.grpc?.progress == nil)
  }

  @Test func jsonrpcDefaults() throws {
    let e = try #require(api?.endpoint(named: "rpc.add"))
    #expect(e.kind == .jsonrpc)
    #expect(e.method == "POST")
    #expect(e.path == "/")
    #expect(e.params.map(\.location) == [.body, .body])
    #expect(e.params.map(\.type) == [.number, .number])
    #expect(e.auth == .basic(username: "admin", password: "${env:PASS}"))
    #expect(e.jsonrpc == JSONRPCOptions(rpcMethod: "add", paramsBy: .position, notification: false))
  }

  @Test func apiKeyAuthShapes() throws {
    let gifs = try #require(api?.endpoint(named: "gifs.search"))
    // {api_key} is filled by the auth, so it needs no parameter.
    #expect(gifs.auth == .apiKey(location: .path, name: "api_key", value: "${env:GIFS_KEY}"))
    #expect(gifs.params.map(\.name) == ["q", "page"])
    #expect(gifs.param(named: "page")?.defaultValue == .number("1"))
    let form = try #require(api?.endpoint(named: "form.send"))
    #expect(form.auth == .apiKey(location: .header, name: "X-API-Key", value: "${env:KEY}"))  // "in" defaults to header
    #expect(form.bodyEncoding == .form)
    #expect(form.params.map(\.location) == [.form, .multipart])
    #expect(form.method == "PUT")
  }

  @Test func endpointLocationsPointAtTheirObjects() throws {
    let api = try #require(api)
    for name in ["imports.create", "lessons.create", "form.send"] {
      let e = try #require(api.endpoint(named: name))
      // The endpoint's value starts at the `{` after `"name": `.
      let expected = RegistryFixture.position(of: "\"\(name)\": {", in: Self.everything).map {
        APXCore.SourceLocation(line: $0.line, column: $0.column + name.unicodeScalars.count + 4)
      }
      #expect(e.location == expected, "\(name)")
    }
    #expect(api.endpoint(named: "imports.create")?.location == APXCore.SourceLocation(line: 20, column: 23))
  }

  @Test func authAndRetryAreOptional() throws {
    let api = try #require(
      RegistryFixture.load(#"{"api": "min", "endpoints": {"ping": {"kind": "rest", "path": "/ping"}}}"#))
    #expect(api.auth == nil)
    #expect(api.retry == nil)
    #expect(api.environments.isEmpty)
    #expect(api.defaultEnvironment == nil)
    #expect(api.headers.isEmpty)
    let ping = try #require(api.endpoint(named: "ping"))
    #expect(ping.params.isEmpty && ping.expectStatus == nil && ping.timeout == nil && ping.bodyEncoding == nil)
  }

  @Test func emptyEndpointsObjectIsAllowed() throws {
    let api = try #require(RegistryFixture.load(#"{"api": "empty", "endpoints": {}}"#))
    #expect(api.endpoints.isEmpty)
  }

  @Test func fallbackMayNameItsOwnAPIOrAnotherAPI() throws {
    for poll in ["sample.items.status", "other.jobs.status", "items.status"] {
      let text = RegistryFixture.document(
        endpoints: """
              "items.status": { "kind": "rest", "path": "/s" },
              "items.watch": { "kind": "sse", "path": "/w",
                "fallback": { "poll": "\(poll)", "until": ".s", "equals": "done" } }
          """)
      let api = RegistryFixture.load(text)
      #expect(api?.endpoint(named: "items.watch")?.sse?.fallback?.poll == poll)
      #expect(api?.endpoint(named: "items.watch")?.sse?.fallback?.interval == 10)
    }
  }
}
