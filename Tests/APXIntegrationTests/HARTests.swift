import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `--har FILE`: an HTTP Archive 1.2 of every exchange, checked against the HAR 1.2 schema
/// (Tests/Fixtures/har) with Python's `jsonschema`, an implementation independent of ours.
@Suite struct HARTests {
  static let schema = RegistrySchemaTests.packageRoot.appendingPathComponent("Tests/Fixtures/har/har-1.2.schema.json")

  static func entries(_ path: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
    return (object?["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
  }

  static func request(_ entry: [String: Any]) -> [String: Any] { entry["request"] as? [String: Any] ?? [:] }
  static func response(_ entry: [String: Any]) -> [String: Any] { entry["response"] as? [String: Any] ?? [:] }

  /// Checks `files` against the HAR schema; where `jsonschema` is missing, says so and checks
  /// only what the tests assert themselves.
  static func expectValid(_ files: [String]) async throws {
    guard await SchemaValidator.found() else {
      print("HAR schema check skipped: \(SchemaValidator.missing)")
      return
    }
    let problems = try await SchemaValidator.problems(schema: schema, files: files)
    for file in files { #expect(problems[file] == nil, "\(file) is not HAR 1.2:\n\(problems[file] ?? "")") }
  }

  @Test func redirectsRetriesTokenRequestsAndStreamsAreRecordedSecretsMasked() async throws {
    let state = TestScratch.root.appendingPathComponent("apx-har-state-\(UUID().uuidString)").path
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let base = server.httpBaseURL
      let env = ["APX_STATE_DIR": state, "BOOKS_CLIENT_SECRET": "demo-secret"]
      let authed = try temporaryFile("authed.har", "")
      let call = try await APXProcess.run(
        ["call", "books.capabilities.get", "--base-url", base, "--har", authed], environment: env)
      #expect(call.status == 0, "\(call.stderr)")
      let tokenAndCall = try Self.entries(authed)
      #expect(tokenAndCall.count == 2, "the token request, then the call")
      #expect((Self.request(tokenAndCall[0])["url"] as? String)?.hasSuffix("/oauth/token") == true)
      let text = try String(contentsOfFile: authed, encoding: .utf8)
      #expect(text.contains("Bearer ***"), "the token is masked")
      #expect(!text.contains("demo-secret"))
      let token = try await APXProcess.run(["auth", "token", "books", "--base-url", base], environment: env)
      let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(!accessToken.isEmpty && !text.contains(accessToken), "no access token in the archive")
      try await Self.expectValid([authed])
    }
    try await withDemoServer { server in
      let base = server.httpBaseURL

      let hops = try temporaryFile("hops.har", "")
      let redirect = try await APXProcess.run([
        "call", base + "/_demo/redirect?to=/_demo/headers&status=302", "--har", hops,
      ])
      #expect(redirect.status == 0, "\(redirect.stderr)")
      let hopEntries = try Self.entries(hops)
      #expect(hopEntries.count == 2)
      #expect(Self.response(hopEntries[0])["status"] as? Int == 302)
      #expect(Self.response(hopEntries[0])["redirectURL"] as? String == "/_demo/headers")

      let retried = try temporaryFile("retried.har", "")
      let flaky = try await APXProcess.run([
        "call", base + "/api/v2/flaky", "key==har", "fail==1", "retry_after==0", "--har", retried,
      ])
      #expect(flaky.status == 0, "\(flaky.stderr)")
      #expect(try Self.entries(retried).map { Self.response($0)["status"] as? Int } == [503, 200])

      let stream = try temporaryFile("stream.har", "")
      let sse = try await APXProcess.run([
        "call", base + "/api/v2/bench/events", "count==3", "--sse", "--har", stream,
      ])
      #expect(sse.status == 0, "\(sse.stderr)")
      let content = try #require(Self.response(try Self.entries(stream)[0])["content"] as? [String: Any])
      #expect((content["text"] as? String)?.components(separatedBy: "data: ").count == 4, "\(content)")

      let posted = try temporaryFile("posted.har", "")
      let post = try await APXProcess.run(["call", "POST", base + "/_demo/headers", "name=Ann", "--har", posted])
      #expect(post.status == 4 || post.status == 0 || post.status == 5, "\(post.stderr)")
      let postData = try #require(Self.request(try Self.entries(posted)[0])["postData"] as? [String: Any])
      #expect(postData["text"] as? String == #"{"name":"Ann"}"#, "\(postData)")

      try await Self.expectValid([hops, retried, stream, posted])
    }
  }

  /// A server that echoes the request puts the credential in its answer: the archive masks it
  /// there too, as `-v` masks it in headers (stdout keeps the answer as the server sent it).
  @Test func aCredentialEchoedInTheAnswerIsMaskedInTheArchive() async throws {
    try await withDemoServer { server in
      let har = try temporaryFile("echo.har", "")
      let secret = "s3cr3t-t0ken-echoed"
      let r = try await APXProcess.run([
        "call", server.httpBaseURL + "/_demo/echo", "-H", "Authorization: Bearer \(secret)", "--har", har,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains(secret), "stdout is the answer as sent")
      let text = try String(contentsOfFile: har, encoding: .utf8)
      #expect(text.contains("/_demo/echo"), "\(text)")
      #expect(!text.contains(secret), "\(text)")
      try await Self.expectValid([har])
    }
  }

  /// A redirect whose Location carries a credential (`?access_token=`, a pre-signed URL's
  /// signature): masked in `-v`, in the next hop's request line and in the archive.
  @Test func aCredentialInARedirectsLocationIsMasked() async throws {
    let token = "tok-redirect-4411"
    let signature = "f00dsig99887766"
    try await withHostileServer({ head in
      head.hasPrefix("GET /start")
        ? HostileHTTPServer.response(
          "302 Found", headers: [("Location", "/next?access_token=\(token)&X-Amz-Signature=\(signature)&page=2")])
        : HostileHTTPServer.response(headers: [("Content-Type", "application/json")], body: Array(#"{"ok":true}"#.utf8))
    }) { server in
      let har = try temporaryFile("redirect.har", "")
      let r = try await APXProcess.run(["call", server.baseURL + "/start", "-v", "--har", har])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("access_token=***") && r.stderr.contains("page=2"), "\(r.stderr)")
      let text = try String(contentsOfFile: har, encoding: .utf8)
      for shown in [r.stderr, text] {
        #expect(!shown.contains(token) && !shown.contains(signature), "\(shown)")
      }
      try await Self.expectValid([har])
    }
  }

  /// An answer that is not UTF-8 goes into the archive as base64, with an echoed credential
  /// masked in its bytes.
  @Test func aCredentialInABinaryAnswerIsMaskedBeforeBase64() async throws {
    let secret = "s3cr3t-binary-echo"
    let body: [UInt8] = [0xFF, 0xFE, 0x00] + Array("token=\(secret);".utf8) + [0xC3]
    try await withHostileServer({ _ in
      HostileHTTPServer.response(headers: [("Content-Type", "application/octet-stream")], body: body)
    }) { server in
      let har = try temporaryFile("binary.har", "")
      let r = try await APXProcess.run([
        "call", server.baseURL + "/blob", "-H", "Authorization: Bearer \(secret)", "--har", har, "-o", "raw",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let entry = try #require(try Self.entries(har).first)
      let content = try #require(Self.response(entry)["content"] as? [String: Any])
      #expect(content["encoding"] as? String == "base64", "\(content)")
      let decoded = Data(base64Encoded: content["text"] as? String ?? "") ?? Data()
      #expect(Array(decoded) == [0xFF, 0xFE, 0x00] + Array("token=***;".utf8) + [0xC3], "\(Array(decoded))")
      try await Self.expectValid([har])
    }
  }

  /// A stream whose `event:` field echoes the credential: masked in `_apx.events[].event` too.
  @Test func aCredentialEchoedInAnEventTypeIsMaskedInTheArchive() async throws {
    let secret = "s3cr3t-event-echo"
    let stream = Array("event: seen-\(secret)\ndata: {\"n\":1}\n\n".utf8)
    try await withHostileServer({ _ in
      HostileHTTPServer.response(headers: [("Content-Type", "text/event-stream")], body: stream)
    }) { server in
      let har = try temporaryFile("event.har", "")
      let r = try await APXProcess.run([
        "call", server.baseURL + "/events", "--sse", "-H", "Authorization: Bearer \(secret)", "--har", har,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let text = try String(contentsOfFile: har, encoding: .utf8)
      #expect(text.contains("seen-***"), "\(text)")
      #expect(!text.contains(secret), "\(text)")
      try await Self.expectValid([har])
    }
  }

  @Test func gRPCCallsAreTheirHTTP2RequestsWithTheMessagesInAnApxField() async throws {
    try await withDemoServer { server in
      let file = try temporaryFile("grpc.har", "")
      let result = try await APXProcess.run([
        "call", server.grpcBaseURL + "/classnotes.v1.ClassNotesAPI/ListLessons", "--har", file,
      ])
      #expect(result.status == 0, "\(result.stderr)")
      let entry = try #require(try Self.entries(file).first)
      #expect(Self.request(entry)["method"] as? String == "POST")
      let apx = try #require(entry["_apx"] as? [String: Any])
      #expect((apx["messages"] as? [Any])?.count == 1, "\(apx)")
      try await Self.expectValid([file])
    }
  }

  @Test func aRecipeRecordsEveryStepAndPage() async throws {
    try await withDemoServer { server in
      let recipe = try temporaryFile(
        "pages.json",
        #"{"name": "p", "steps": [{"id": "all", "call": "books.catalogue.list", "with": {"per_page": 2, "total": 5}, "all": true}]}"#
      )
      let file = try temporaryFile("run.har", "")
      let run = try await APXProcess.run(["run", recipe, "--base-url", server.httpBaseURL, "--har", file])
      #expect(run.status == 0, "\(run.stderr)")
      let archive = try String(contentsOfFile: file, encoding: .utf8)
      let urls = try Self.entries(file).map { Self.request($0)["url"] as? String ?? "" }
      #expect(urls.count == 4, "the token request and three pages: \(archive.prefix(3000))")
      #expect(urls.first?.hasSuffix("/oauth/token") == true)
      #expect(urls.dropFirst().allSatisfy { $0.contains("/api/v2/catalogue/link") }, "\(urls)")
      try await Self.expectValid([file])
      let refused = try await APXProcess.run(["run", recipe, "--dry-run", "--har", file])
      #expect(refused.status == 2 && refused.stderr.contains("--har"), "\(refused.stderr)")
    }
  }
}
