import APXCore
import Foundation
import Testing

/// `apx mock` serving a registry's gRPC endpoints from their schema: a protoset, or the
/// reflection of the API's server, read once at start.
@Suite("apx mock: gRPC")
struct MockGRPCCommandTests {
  static let service = "classnotes.v1.ClassNotesAPI"

  /// A registry of one gRPC API whose schema is `schema`, with bearer auth.
  static func registry(baseURL: String, schema: String) throws -> String {
    try temporaryFile(
      "notes.json",
      """
      {"api": "notes", "environments": {"here": {"base_url": "\(baseURL)"}},
       "auth": {"type": "bearer", "token": "${env:NOTES_TOKEN}"},
       "endpoints": {
         "get": {"kind": "grpc", "service": "\(service)", "method": "GetLesson", "schema": \(schema)},
         "watch": {"kind": "grpc", "service": "\(service)", "method": "StreamProcessingStatus", "schema": \(schema)}}}
      """)
  }

  static var protosetSchema: String {
    #"{"protoset": "\#(APXProcess.packageRoot.appendingPathComponent("Protos/classnotes.protoset").path)"}"#
  }

  /// apx and grpcurl reach the mocked service by the registry and by reflection.
  @Test func aProtosetAPIIsServedWithReflection() async throws {
    let registry = try Self.registry(baseURL: "grpc://127.0.0.1:1", schema: Self.protosetSchema)
    try await MockProcess.with(["notes", "--registry", registry, "--grpc-port", "0"]) { mock in
      let url = try #require(mock.urls["notes"], "\(mock.urls)")
      #expect(url.hasPrefix("grpc://127.0.0.1:"), "\(url)")
      let base = ["--base-url", url, "--registry", registry]
      let ok = try await APXProcess.run(["call", "notes.get", "id=les_1"] + base, environment: ["NOTES_TOKEN": "any"])
      #expect(ok.status == 0, "\(ok.stderr)")
      #expect(try JSONParser.parse(Array(ok.stdout.utf8))["id"]?.stringValue != nil, "\(ok.stdout)")
      let stream = try await APXProcess.run(
        ["call", "notes.watch", "lesson_id=les_1", "-o", "ndjson"] + base, environment: ["NOTES_TOKEN": "any"])
      #expect(stream.status == 0 && stream.stdout.split(separator: "\n").count == 3, "\(stream.stdout)\(stream.stderr)")
      if CallPreviewTests.hasGRPCurl {
        let list = try await APXProcess.run(
          ["-c", "grpcurl -plaintext \(url.dropFirst("grpc://".count)) list"],
          executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(list.stdout.contains(Self.service), "\(list.stdout)\(list.stderr)")
      }
    }
  }

  /// An endpoint whose schema is reflection, beside one of the same service with a protoset: the
  /// mock reads the service from the protoset, not from the API's server (nothing listens on
  /// its port), and answers both.
  @Test func aServiceALocalSchemaDescribesIsNotReadOverReflection() async throws {
    let registry = try temporaryFile(
      "notes.json",
      """
      {"api": "notes", "environments": {"here": {"base_url": "grpc://127.0.0.1:1"}},
       "endpoints": {
         "get": {"kind": "grpc", "service": "\(Self.service)", "method": "GetLesson", "schema": {"reflection": true}},
         "watch": {"kind": "grpc", "service": "\(Self.service)", "method": "StreamProcessingStatus",
                   "schema": \(Self.protosetSchema)}}}
      """)
    let run = try await MockProcess.with(["notes", "--registry", registry, "--grpc-port", "0"]) { mock in
      let url = try #require(mock.urls["notes"], "\(mock.urls)")
      let ok = try await APXProcess.run(["call", "notes.get", "id=les_1", "--base-url", url, "--registry", registry])
      #expect(ok.status == 0, "\(ok.stderr)")
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(!stderr.contains("reading the schema"), "\(stderr)")
  }

  /// The bearer auth is checked in form; a fault asked for in metadata ends the call with its
  /// status and is logged; a fault the mock cannot read is INVALID_ARGUMENT.
  @Test func authIsCheckedInFormAndFaultsComeFromMetadata() async throws {
    let registry = try Self.registry(baseURL: "grpc://127.0.0.1:1", schema: Self.protosetSchema)
    let result = try await MockProcess.with(["notes", "--registry", registry, "--grpc-port", "0"]) { mock in
      let url = try #require(mock.urls["notes"], "\(mock.urls)")
      let base = ["--base-url", url, "--registry", registry, "--no-retry"]
      let anonymous = try await APXProcess.run(["call", "\(url)/\(Self.service)/GetLesson", "id=les_1"])
      #expect(anonymous.status == 80, "UNAUTHENTICATED: \(anonymous.stderr)")
      let fault = try await APXProcess.run(
        ["call", "notes.get", "id=les_1", "-H", "x-apx-mock-fault: fail=503"] + base,
        environment: ["NOTES_TOKEN": "any"])
      #expect(fault.status == 78, "UNAVAILABLE: \(fault.stderr)")
      let coded = try await APXProcess.run(
        ["call", "notes.get", "id=les_1", "-H", "x-apx-mock-fault: grpc-status=8; after-headers=true"] + base,
        environment: ["NOTES_TOKEN": "any"])
      #expect(coded.status == 72, "RESOURCE_EXHAUSTED: \(coded.stderr)")
      let bad = try await APXProcess.run(
        ["call", "notes.get", "id=les_1", "-H", "x-apx-mock-fault: fail=nope"] + base,
        environment: ["NOTES_TOKEN": "any"])
      #expect(bad.status == 67 && bad.stderr.contains("x-apx-mock-fault"), "INVALID_ARGUMENT: \(bad.stderr)")
    }
    let log = String(decoding: result.stderr, as: UTF8.self)
    #expect(log.contains("apx mock: fault unavailable on gRPC /\(Self.service)/GetLesson"), "\(log)")
  }

  /// `--latency` and `latency=` delay gRPC calls, and every call is in the API's request log
  /// (its HTTP port is named "API.http" when the API has no HTTP endpoints), credentials `***`.
  @Test func latencyAppliesAndCallsAreInTheRequestLog() async throws {
    let registry = try Self.registry(baseURL: "grpc://127.0.0.1:1", schema: Self.protosetSchema)
    let result = try await MockProcess.with(["notes", "--registry", registry, "--grpc-port", "0", "--latency", "3"]) {
      mock in
      let url = try #require(mock.urls["notes"], "\(mock.urls)")
      let port = try mock.port("notes.http")
      let base = ["--base-url", url, "--registry", registry, "--no-retry"]
      let ok = try await APXProcess.run(
        ["call", "notes.get", "id=les_1"] + base, environment: ["NOTES_TOKEN": "t0k3n"])
      #expect(ok.status == 0, "\(ok.stderr)")
      let slow = try await APXProcess.run(
        ["call", "notes.get", "id=les_1", "-H", "x-apx-mock-fault: latency=7; fail=503"] + base,
        environment: ["NOTES_TOKEN": "t0k3n"])
      #expect(slow.status == 78, "UNAVAILABLE: \(slow.stderr)")
      let log = try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests")
      let entries = try #require(log.json?.arrayValue, "\(log.text)")
      #expect(entries.count == 2, "\(log.text)")
      let first = try #require(entries.first)
      #expect(first["kind"] == .string("grpc"))
      #expect(first["path"] == .string("/\(Self.service)/GetLesson"))
      #expect(first["endpoint"] == .string("get"))
      #expect(first["status"] == .int(0) && first["grpc_status"] == .string("ok"))
      #expect(first["headers"]?["authorization"] == .string("***"), "\(log.text)")
      #expect(first["fault"] == .string("latency 3 ms"))
      #expect(entries.last?["status"] == .int(14), "\(log.text)")
      #expect(entries.last?["fault"] == .string("latency 7 ms, grpc-status unavailable"), "\(log.text)")
      #expect(!log.text.contains("t0k3n"))
    }
    let stderr = String(decoding: result.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: fault: latency 3 ms: gRPC /\(Self.service)/GetLesson"), "\(stderr)")
    #expect(stderr.contains("apx mock: fault: latency 7 ms: gRPC /\(Self.service)/GetLesson"), "\(stderr)")
  }

  /// `apx run --mock` sends a recipe's gRPC steps to the mock's gRPC server.
  @Test func aRecipeWithGRPCStepsRunsAgainstTheMock() async throws {
    let registry = try Self.registry(baseURL: "grpc://127.0.0.1:1", schema: Self.protosetSchema)
    let recipe = try temporaryFile(
      "notes-check.json",
      #"""
      {"name": "notes-check", "steps": [
        {"id": "get", "call": "notes.get", "with": {"id": "les_1"}, "expect": {".body.id": {"exists": true}}}
      ]}
      """#)
    let r = try await APXProcess.run(
      ["run", recipe, "--registry", registry, "--mock"], environment: ["NOTES_TOKEN": "t0k3n"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("step get (notes.get): ok"), "\(r.stderr)")
  }

  /// A token the mock's token endpoint issued is UNAUTHENTICATED on a gRPC call once it expired.
  @Test func anExpiredMockTokenIsUnauthenticated() async throws {
    let registry = try temporaryFile(
      "vaultnotes.json",
      """
      {"api": "vaultnotes", "environments": {"here": {"base_url": "grpc://127.0.0.1:1"}},
       "auth": {"type": "oauth2_client_credentials", "token_url": "/oauth/token", "client_id": "c", "client_secret": "s"},
       "endpoints": {
         "ping": {"kind": "rest", "path": "/ping", "responses": {"204": {}}},
         "get": {"kind": "grpc", "service": "\(Self.service)", "method": "GetLesson", "schema": \(Self.protosetSchema)}}}
      """)
    let result = try await MockProcess.with(
      ["vaultnotes", "--registry", registry, "--grpc-port", "0", "--token-lifetime", "1"]
    ) { mock in
      let port = try mock.port("vaultnotes")
      let grpc = try #require(mock.urls["vaultnotes.grpc"], "\(mock.urls)")
      let granted = try await LoopbackHTTP.request(
        port: port, "POST", "/oauth/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
        body: "grant_type=client_credentials&client_id=c&client_secret=s")
      let token = try #require(granted.json?["access_token"]?.stringValue, "\(granted.text)")
      var expired = false
      for _ in 0..<200 {
        let ping = try await LoopbackHTTP.request(
          port: port, "GET", "/ping", headers: ["Authorization": "Bearer \(token)"])
        if ping.status == 401 {
          expired = true
          break
        }
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(expired, "the token never expired")
      let call = try await APXProcess.run([
        "call", "\(grpc)/\(Self.service)/GetLesson", "id=les_1", "--bearer", token, "--no-retry",
      ])
      #expect(call.status == 80, "UNAUTHENTICATED: \(call.stderr)")
      #expect(call.stderr.contains("the access token expired"), "\(call.stderr)")
      let entries = try await LoopbackHTTP.request(port: port, "GET", "/__apx/requests").json?.arrayValue ?? []
      #expect(entries.last?["fault"] == .string("token expired"), "\(entries)")
      #expect(entries.last?["status"] == .int(16), "\(entries)")
    }
    let log = String(decoding: result.stderr, as: UTF8.self)
    #expect(log.contains("apx mock: fault: token expired: gRPC /\(Self.service)/GetLesson"), "\(log)")
  }

  /// An API whose schema comes from reflection is read from its environment's server once, at start.
  @Test func aReflectionAPIIsReadFromItsServerAtStart() async throws {
    try await withDemoServer { server in
      let registry = try Self.registry(baseURL: server.grpcBaseURL, schema: #"{"reflection": true}"#)
      try await MockProcess.with(["notes", "--registry", registry, "--grpc-port", "0"]) { mock in
        let url = try #require(mock.urls["notes"], "\(mock.urls)")
        let r = try await APXProcess.run(
          ["call", "notes.get", "id=les_1", "--base-url", url, "--registry", registry],
          environment: ["NOTES_TOKEN": "any"])
        #expect(r.status == 0, "\(r.stderr)")
      }
    }
    let dead = try Self.registry(baseURL: "grpc://127.0.0.1:1", schema: #"{"reflection": true}"#)
    let r = try await APXProcess.run(["mock", "notes", "--registry", dead, "--port", "0", "--grpc-port", "0"])
    // UNAVAILABLE, as apx call says of a server whose reflection cannot be reached.
    #expect(r.status == 78, "the server to read the schema from is down: \(r.stderr)")
    #expect(r.stderr.contains("cannot read the schema of grpc://127.0.0.1:1 over reflection"), "\(r.stderr)")
  }
}
