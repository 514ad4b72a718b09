import APXCore
import APXTestSupport
import Foundation
import Testing

/// Checks that `Endpoints/registry.schema.json` and `RegistryLoader` agree:
/// every shipped registry file passes both, and documents that the loader
/// rejects for a reason a schema can express are rejected by the schema too.
/// Validation uses Python's `jsonschema` package (installed by `.ci/run`),
/// an implementation independent of ours.
@Suite struct RegistrySchemaTests {
  /// The package root: this file is Tests/APXIntegrationTests/RegistrySchemaTests.swift.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let endpoints = packageRoot.appendingPathComponent("Endpoints").resolvingSymlinksInPath()
  static let schema = endpoints.appendingPathComponent("registry.schema.json")

  /// Every registry file shipped in Endpoints/, the schema excluded.
  static func registryFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: endpoints, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" && $0.lastPathComponent != "registry.schema.json" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  @Test(.enabled(Comment(rawValue: SchemaValidator.missing)) { await SchemaValidator.found() })
  func schemaIsAValidDraft2020Schema() async throws {
    let result = try await SchemaValidator.run(
      """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
      """, [Self.schema.path])
    #expect(result.status == 0, "\(result.output)")
  }

  @Test(.enabled(Comment(rawValue: SchemaValidator.missing)) { await SchemaValidator.found() })
  func everyShippedRegistryFileMatchesTheSchema() async throws {
    let files = try Self.registryFiles()
    #expect(!files.isEmpty, "no registry files in \(Self.endpoints.path)")
    let problems = try await SchemaValidator.problems(schema: Self.schema, files: files.map(\.path))
    for file in files {
      #expect(
        problems[file.path] == nil,
        "\(file.lastPathComponent) does not match registry.schema.json:\n\(problems[file.path] ?? "")")
    }
  }

  @Test func everyShippedRegistryFileLoads() throws {
    for file in try Self.registryFiles() {
      let bytes = try [UInt8](Data(contentsOf: file))
      do {
        let api = try RegistryLoader.load(bytes, file: file.lastPathComponent)
        #expect(!api.endpoints.isEmpty, "\(file.lastPathComponent) defines no endpoints")
        #expect(file.deletingPathExtension().lastPathComponent == api.name, "the file name should be <api>.json")
      } catch {
        Issue.record("\(file.lastPathComponent) does not load:\n\(error.description)")
      }
    }
  }

  /// The schema must be able to fail: each broken document is rejected by the
  /// loader *and* by the schema, while the valid ones pass both.
  /// One Python process validates the whole corpus (starting one per case is slow).
  @Test(.enabled(Comment(rawValue: SchemaValidator.missing)) { await SchemaValidator.found() })
  func schemaAndLoaderAgree() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var paths: [String] = []
    for sample in SchemaCorpus.cases {
      let url = dir.appendingPathComponent("\(sample.name).json")
      try Data(sample.json.utf8).write(to: url)
      paths.append(url.path)
    }
    let problems = try await SchemaValidator.problems(schema: Self.schema, files: paths)
    for (sample, path) in zip(SchemaCorpus.cases, paths) {
      let loaderAccepts: Bool
      do {
        _ = try RegistryLoader.load(Array(sample.json.utf8), file: "\(sample.name).json")
        loaderAccepts = true
      } catch {
        loaderAccepts = false
      }
      #expect(loaderAccepts == sample.valid, "loader disagrees on \(sample.name)")
      if sample.valid {
        #expect(problems[path] == nil, "schema rejects \(sample.name):\n\(problems[path] ?? "")")
      } else {
        #expect(problems[path] != nil, "schema accepts \(sample.name), which the loader rejects")
      }
    }
  }
}

/// Runs Python's `jsonschema` against files.
enum SchemaValidator {
  /// Why the schema checks are skipped (a `Comment` in the tests) when Python cannot run them.
  static let missing =
    "python3 with jsonschema is not installed (python3 -m pip install jsonschema, in a venv where pip refuses, as .ci/run does)"

  /// Whether `python3` imports `jsonschema` (asked once per test process).
  static func found() async -> Bool { await availability.value }

  private static let availability = Task {
    let check = try? await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", "import jsonschema"], environment: ProcessInfo.processInfo.environment,
      timeout: 60)
    return check?.status == 0 && check?.signaled == false
  }

  struct Result {
    var status: Int32
    var output: String
  }

  /// Validation messages (`json-path: message` lines) by file path; files that validate are absent.
  static func problems(schema: URL, files: [String]) async throws -> [String: String] {
    let result = try await run(
      """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      validator = jsonschema.Draft202012Validator(schema)
      bad = 0
      for path in sys.argv[2:]:
          for error in sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.absolute_path)):
              bad += 1
              print("%s\t%s: %s" % (path, error.json_path, error.message.replace("\\n", " ")))
      sys.exit(1 if bad else 0)
      """, [schema.path] + files)
    // Exit 1 means "invalid" and is reported as problems; anything else is a broken setup.
    guard result.status == 0 || (result.status == 1 && !result.output.isEmpty) else {
      throw SetupError(
        message: "python3 -m jsonschema failed (status \(result.status)); install it with "
          + "`python3 -m pip install jsonschema`:\n\(result.output)")
    }
    var byFile: [String: String] = [:]
    for line in result.output.split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 1)
      guard fields.count == 2 else { continue }
      byFile[String(fields[0]), default: ""] += fields[1] + "\n"
    }
    return byFile
  }

  /// Runs `python3 -c script args...`, capturing stdout, then stderr.
  static func run(_ script: String, _ arguments: [String]) async throws -> Result {
    let r = try await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", script] + arguments, environment: ProcessInfo.processInfo.environment,
      timeout: 300)
    return Result(status: r.status, output: String(decoding: r.stdout + r.stderr, as: UTF8.self))
  }

  struct SetupError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}

/// Small registry documents, each valid or broken in one way a schema can express.
enum SchemaCorpus {
  struct Case: Sendable {
    var name: String
    var valid: Bool
    var json: String
  }

  /// A registry document whose one endpoint is `endpoint`, with optional extra top-level members.
  static func doc(endpoint: String, top: String = "") -> String {
    """
    {"$schema": "./registry.schema.json", "api": "sample",
     "environments": {"demo": {"base_url": "http://127.0.0.1:8080"}}, "default_environment": "demo",
     \(top.isEmpty ? "" : top + ",")
     "endpoints": {"items.get": \(endpoint)}}
    """
  }

  static let rest = #"{"kind": "rest", "method": "GET", "path": "/items/{id}", "params": {"id": {"in": "path"}}}"#

  static let cases: [Case] = [
    Case(name: "control", valid: true, json: doc(endpoint: rest)),
    Case(
      name: "every-feature", valid: true,
      json: doc(
        endpoint: """
          {"kind": "sse", "method": "get", "path": "/items/{id}/stream", "description": "watch",
           "params": {"id": {"in": "path", "required": true, "type": "integer", "description": "the id"},
                      "mode": {"in": "query", "enum": ["a", "b"], "default": "a", "name": "m"},
                      "X-Trace": {"in": "header", "secret": true}},
           "headers": {"Accept": "text/event-stream"}, "expect_status": 200, "timeout": 30,
           "auth": {"type": "none"}, "retry": {"max_attempts": 1}, "idempotent": true, "idempotency_key": false,
           "until_event": "complete", "fail_on_event": ["error"],
           "reconnect": {"delays": [0, 1.5], "max_failures": 2},
           "fallback": {"poll": "items.get", "interval": 0.5, "until": ".status", "equals": "done", "fail_when": ["failed"]},
           "progress": {"fraction": ".p", "done": ".d", "total": ".t"}}
          """,
        top: """
          "title": "Sample", "description": "d", "headers": {"Accept": "application/json"},
          "auth": {"type": "oauth2_client_credentials", "token_url": "/oauth/token", "client_id": "id",
                   "client_secret": "${env:S}", "scopes": "read", "audience": "api", "extra_fields": {"a": "b"}},
          "retry": {"max_attempts": 100, "initial_delay": 0.001, "multiplier": 2, "max_delay": 3600, "jitter": true,
                    "on_status": [429, 503], "on_grpc_codes": "UNAVAILABLE"}
          """)),
    Case(
      name: "grpc-protoset", valid: true,
      json: doc(
        endpoint: #"""
          {"kind": "grpc", "service": "a.v1.S", "method": "Get", "schema": {"reflection": false, "protoset": "a.protoset"},
           "params": {"id": {"type": "integer"}}, "retry_codes": ["UNAVAILABLE", "ABORTED"], "progress": {"fraction": ".f"}}
          """#, top: #""auth": {"type": "token_command", "command": ["print-token", "--json"], "lifetime": 60}"#)),
    Case(
      name: "jsonrpc-file-param-defaults-to-body", valid: true,
      json: doc(
        endpoint: #"{"kind": "jsonrpc", "rpc_method": "upload", "method": "post", "params": {"f": {"type": "file"}}}"#)),
    Case(
      name: "jsonrpc-notification-by-position", valid: true,
      json: doc(
        endpoint: #"{"kind": "jsonrpc", "rpc_method": "log", "params_by": "position", "notification": true}"#)),
    Case(name: "jsonrpc-without-rpc-method", valid: false, json: doc(endpoint: #"{"kind": "jsonrpc"}"#)),
    Case(
      name: "jsonrpc-reserved-rpc-method", valid: false,
      json: doc(endpoint: #"{"kind": "jsonrpc", "rpc_method": "rpc.discover"}"#)),
    Case(
      name: "jsonrpc-unknown-params-by", valid: false,
      json: doc(endpoint: #"{"kind": "jsonrpc", "rpc_method": "add", "params_by": "order"}"#)),
    Case(
      name: "rpc-method-on-rest", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "rpc_method": "add"}"#)),
    Case(
      name: "api-key-in-path", valid: true,
      json: doc(
        endpoint:
          #"{"kind": "rest", "path": "/v1/{api_key}/gifs", "body": "raw", "params": {"f": {"in": "body", "type": "file"}}}"#,
        top: #""auth": {"type": "api_key", "in": "path", "name": "api_key", "value": "${env:KEY}"}"#)),
    Case(name: "unknown-top-key", valid: false, json: doc(endpoint: rest, top: #""enviroments": {}"#)),
    Case(name: "missing-api", valid: false, json: #"{"endpoints": {}}"#),
    Case(name: "empty-api-name", valid: false, json: #"{"api": "", "endpoints": {}}"#),
    Case(name: "api-name-with-dot", valid: false, json: #"{"api": "a.b", "endpoints": {}}"#),
    Case(name: "missing-endpoints", valid: false, json: #"{"api": "a"}"#),
    Case(name: "description-not-string", valid: false, json: #"{"api": "a", "description": 1, "endpoints": {}}"#),
    Case(
      name: "missing-base-url", valid: false,
      json: #"{"api": "a", "environments": {"demo": {"description": "x"}}, "endpoints": {}}"#),
    Case(
      name: "bad-base-url-scheme", valid: false,
      json: #"{"api": "a", "environments": {"demo": {"base_url": "ftp://x"}}, "endpoints": {}}"#),
    Case(name: "unknown-kind", valid: false, json: doc(endpoint: #"{"kind": "soap", "path": "/"}"#)),
    Case(
      name: "unknown-endpoint-key", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "mehtod": "GET"}"#)),
    Case(
      name: "unknown-http-method", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "method": "FETCH"}"#)),
    Case(name: "rest-without-path", valid: false, json: doc(endpoint: #"{"kind": "rest"}"#)),
    Case(
      name: "sse-key-on-rest", valid: false, json: doc(endpoint: #"{"kind": "rest", "path": "/", "until_event": "x"}"#)),
    Case(
      name: "progress-on-rest", valid: false, json: doc(endpoint: #"{"kind": "rest", "path": "/", "progress": {}}"#)),
    Case(
      name: "grpc-key-on-rest", valid: false, json: doc(endpoint: #"{"kind": "rest", "path": "/", "service": "a.S"}"#)),
    Case(
      name: "path-on-grpc", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "path": "/"}"#)),
    Case(name: "grpc-without-service", valid: false, json: doc(endpoint: #"{"kind": "grpc", "method": "M"}"#)),
    Case(
      name: "grpc-no-schema-source", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "schema": {"reflection": false}}"#)),
    Case(
      name: "grpc-proto-files", valid: true,
      json: doc(
        endpoint: #"""
          {"kind": "grpc", "service": "a.S", "method": "M", "schema": {"proto": "a.proto", "import_paths": ["protos"]}}
          """#)),
    Case(
      name: "grpc-two-schema-sources", valid: false,
      json: doc(
        endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "schema": {"protoset": "a", "proto": ["b"]}}"#)),
    Case(
      name: "grpc-reflection-and-protoset", valid: false,
      json: doc(
        endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "schema": {"reflection": true, "protoset": "a"}}"#
      )),
    Case(
      name: "grpc-empty-proto-list", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "schema": {"proto": []}}"#)),
    Case(
      name: "grpc-import-paths-without-proto", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "schema": {"import_paths": "p"}}"#)),
    Case(
      name: "grpc-empty-retry-codes", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "retry_codes": []}"#)),
    Case(
      name: "grpc-unknown-retry-code", valid: false,
      json: doc(endpoint: #"{"kind": "grpc", "service": "a.S", "method": "M", "retry_codes": ["UNAVAILABLE", "BUSY"]}"#)
    ),
    Case(
      name: "unknown-param-location", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"in": "fragment"}}}"#)),
    Case(
      name: "param-styles-cookie-and-body-example", valid: true,
      json: doc(
        endpoint:
          #"{"kind": "rest", "path": "/", "body_example": {"x": [1]}, "params": {"a": {"in": "cookie"}, "f": {"in": "query", "type": "json", "style": "deepObject", "explode": true, "deprecated": true}}}"#
      )),
    Case(
      name: "form-and-multipart-body-encodings", valid: true,
      json: doc(
        endpoint:
          #"{"kind": "rest", "method": "POST", "path": "/", "body": "form", "params": {"metadata": {"in": "form", "type": "json", "style": "deepObject", "explode": true}, "ids": {"in": "form", "type": "array", "explode": false}}}"#
      )),
    Case(
      name: "multipart-part-content-type", valid: true,
      json: doc(
        endpoint:
          #"{"kind": "rest", "method": "POST", "path": "/", "body": "multipart", "params": {"meta": {"in": "multipart", "type": "json", "content_type": "application/json"}, "tags": {"in": "multipart", "type": "array", "style": "pipeDelimited"}}}"#
      )),
    Case(
      name: "unknown-param-style", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"in": "query", "style": "fancy"}}}"#)),
    Case(
      name: "unknown-param-type", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"type": "int"}}}"#)),
    Case(
      name: "unknown-param-key", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"requird": true}}}"#)),
    Case(
      name: "file-param-in-query", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"type": "file"}}}"#)),
    Case(
      name: "enum-not-array", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"enum": "x"}}}"#)),
    Case(
      name: "required-not-bool", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "params": {"a": {"required": "yes"}}}"#)),
    Case(
      name: "unknown-body-encoding", valid: false, json: doc(endpoint: #"{"kind": "rest", "path": "/", "body": "xml"}"#)
    ),
    Case(
      name: "expect-status-out-of-range", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "expect_status": [200, 600]}"#)),
    Case(name: "timeout-zero", valid: false, json: doc(endpoint: #"{"kind": "rest", "path": "/", "timeout": 0}"#)),
    Case(name: "retry-zero-attempts", valid: false, json: doc(endpoint: rest, top: #""retry": {"max_attempts": 0}"#)),
    Case(
      name: "retry-fractional-attempts", valid: false,
      json: doc(endpoint: rest, top: #""retry": {"max_attempts": 2.5}"#)),
    Case(name: "retry-zero-delay", valid: false, json: doc(endpoint: rest, top: #""retry": {"initial_delay": 0}"#)),
    Case(
      name: "retry-negative-max-delay", valid: false, json: doc(endpoint: rest, top: #""retry": {"max_delay": -1}"#)),
    Case(
      name: "retry-multiplier-below-one", valid: false, json: doc(endpoint: rest, top: #""retry": {"multiplier": 0.5}"#)
    ),
    Case(name: "retry-unknown-key", valid: false, json: doc(endpoint: rest, top: #""retry": {"attempts": 3}"#)),
    Case(
      name: "retry-empty-grpc-codes", valid: false, json: doc(endpoint: rest, top: #""retry": {"on_grpc_codes": []}"#)),
    Case(name: "retry-status-not-array", valid: false, json: doc(endpoint: rest, top: #""retry": {"on_status": 503}"#)),
    Case(name: "unknown-auth-type", valid: false, json: doc(endpoint: rest, top: #""auth": {"type": "digest"}"#)),
    Case(name: "auth-without-type", valid: false, json: doc(endpoint: rest, top: #""auth": {"token": "x"}"#)),
    Case(
      name: "bearer-with-username", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "bearer", "username": "x"}"#)),
    Case(
      name: "api-key-without-name", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "api_key", "value": "x"}"#)),
    Case(
      name: "api-key-bad-location", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "api_key", "in": "cookie", "name": "k", "value": "x"}"#)),
    Case(
      name: "basic-without-username", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "basic", "password": "x"}"#)),
    Case(
      name: "oauth2-without-secret", valid: false,
      json: doc(
        endpoint: rest, top: #""auth": {"type": "oauth2_client_credentials", "token_url": "/t", "client_id": "i"}"#)),
    Case(
      name: "authorization-code-by-issuer", valid: true,
      json: doc(
        endpoint: rest,
        top:
          #""auth": {"type": "oauth2_authorization_code", "issuer": "https://id.example.com", "client_id": "c", "scopes": ["openid"], "redirect_port": 8765, "redirect_path": "/cb", "extra_params": {"prompt": "consent"}}"#
      )),
    Case(
      name: "authorization-code-by-endpoints", valid: true,
      json: doc(
        endpoint: rest,
        top:
          #""auth": {"type": "oauth2_authorization_code", "authorize_url": "https://id/a", "token_url": "https://id/t", "client_id": "c", "client_secret": "${env:S}", "client_auth": "basic", "audience": "api", "revocation_url": "https://id/r"}"#
      )),
    Case(
      name: "authorization-code-without-endpoints", valid: false,
      json: doc(
        endpoint: rest, top: #""auth": {"type": "oauth2_authorization_code", "token_url": "/t", "client_id": "c"}"#)),
    Case(
      name: "authorization-code-port-out-of-range", valid: false,
      json: doc(
        endpoint: rest,
        top:
          #""auth": {"type": "oauth2_authorization_code", "issuer": "https://id", "client_id": "c", "redirect_port": 70000}"#
      )),
    Case(
      name: "device-code-by-issuer", valid: true,
      json: doc(
        endpoint: rest, top: #""auth": {"type": "oauth2_device_code", "issuer": "https://id", "client_id": "c"}"#)),
    Case(
      name: "device-code-with-a-redirect-port", valid: false,
      json: doc(
        endpoint: rest,
        top: #""auth": {"type": "oauth2_device_code", "issuer": "https://id", "client_id": "c", "redirect_port": 1}"#)),
    Case(
      name: "device-code-client-auth-without-secret", valid: false,
      json: doc(
        endpoint: rest,
        top:
          #""auth": {"type": "oauth2_device_code", "issuer": "https://id", "client_id": "c", "client_auth": "basic"}"#)),
    Case(
      name: "device-code-without-client", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "oauth2_device_code", "issuer": "https://id"}"#)),
    Case(
      name: "token-command-empty", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "token_command", "command": []}"#)),
    Case(
      name: "token-command-zero-lifetime", valid: false,
      json: doc(endpoint: rest, top: #""auth": {"type": "token_command", "command": "t", "lifetime": 0}"#)),
    Case(name: "headers-not-strings", valid: false, json: doc(endpoint: rest, top: #""headers": {"X-N": 1}"#)),
    Case(
      name: "reconnect-empty-delays", valid: false,
      json: doc(endpoint: #"{"kind": "sse", "path": "/", "reconnect": {"delays": []}}"#)),
    Case(
      name: "reconnect-zero-failures", valid: false,
      json: doc(endpoint: #"{"kind": "sse", "path": "/", "reconnect": {"max_failures": 0}}"#)),
    Case(
      name: "fallback-without-equals", valid: false,
      json: doc(endpoint: #"{"kind": "sse", "path": "/", "fallback": {"poll": "items.get", "until": ".s"}}"#)),
    Case(
      name: "progress-unknown-key", valid: false,
      json: doc(endpoint: #"{"kind": "sse", "path": "/", "progress": {"percent": ".p"}}"#)),
    Case(
      name: "pagination-link", valid: true,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "pagination": {"style": "link", "max_pages": 50}}"#)),
    Case(
      name: "pagination-cursor", valid: true,
      json: doc(
        endpoint: #"""
          {"kind": "rest", "path": "/", "params": {"c": {"in": "query"}},
           "pagination": {"style": "cursor", "items": ".items", "next_cursor": ".next", "cursor_param": "c"}}
          """#)),
    Case(
      name: "pagination-page", valid: true,
      json: doc(
        endpoint: #"""
          {"kind": "rest", "path": "/", "params": {"p": {"in": "query", "type": "integer"}},
           "pagination": {"style": "page", "page_param": "p", "start": 0, "has_next": ".more"}}
          """#)),
    Case(
      name: "pagination-unknown-style", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "pagination": {"style": "offset"}}"#)),
    Case(
      name: "pagination-cursor-without-param", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "pagination": {"style": "cursor", "next_cursor": ".n"}}"#)),
    Case(
      name: "pagination-link-with-page-param", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "pagination": {"style": "link", "page_param": "p"}}"#)),
    Case(
      name: "pagination-zero-max-pages", valid: false,
      json: doc(endpoint: #"{"kind": "rest", "path": "/", "pagination": {"style": "link", "max_pages": 0}}"#)),
    Case(
      name: "pagination-grpc-page-token", valid: true,
      json: doc(
        endpoint: #"""
          {"kind": "grpc", "service": "a.S", "method": "List", "schema": {"protoset": "a.protoset"},
           "pagination": {"style": "cursor", "items": ".items", "next_cursor": ".nextPageToken", "cursor_param": "page_token"}}
          """#)),
    Case(
      name: "pagination-grpc-link", valid: false,
      json: doc(
        endpoint: #"""
          {"kind": "grpc", "service": "a.S", "method": "List", "schema": {"protoset": "a.protoset"},
           "pagination": {"style": "link"}}
          """#)),
    Case(
      name: "pagination-on-sse", valid: false,
      json: doc(endpoint: #"{"kind": "sse", "path": "/", "pagination": {"style": "link"}}"#)),
  ]
}
