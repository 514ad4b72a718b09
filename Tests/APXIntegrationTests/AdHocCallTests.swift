import APXCore
import APXDemoServer
import Foundation
import Testing

/// `apx call [METHOD] URL [ITEM ...]`: ad-hoc calls against the demo backend's echo
/// route, which answers with the request exactly as the server received it.
@Suite("apx call URL (ad hoc)")
struct AdHocCallTests {
  /// What the echo route recorded.
  struct Echo {
    var method: String
    var path: String
    var query: String?
    var headers: [(String, String)]
    var body: String?

    init(_ stdout: String) throws {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
      method = try #require(object["method"] as? String)
      path = try #require(object["path"] as? String)
      query = object["query"] as? String
      headers = ((object["headers"] as? [[String]]) ?? []).map { ($0[0], $0[1]) }
      body = object["body"] as? String
    }

    /// Every value of the header `name` (case-insensitive).
    func header(_ name: String) -> [String] {
      headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }
  }

  static func call(_ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) async throws
    -> APXResult
  {
    try await APXProcess.run(["call"] + arguments, environment: environment, stdin: stdin)
  }

  @Test func headersQueryAndJSONFieldsGoExactlyAsTyped() async throws {
    try await withDemoServer { server in
      let r = try await Self.call([
        server.httpBaseURL + "/_demo/echo/a/b?x=1", "q==cat", "q==dog & mouse", "eq===x", "X-Trace:abc",
        "X-Spaced:  two words ", "name=Ann", "age:=3", "quoted:=\"3\"", "tags:=[\"a\",1]", "esc\\:aped=v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let echo = try Echo(r.stdout)
      #expect(echo.method == "POST", "a body makes the default method POST")
      #expect(echo.path == "/_demo/echo/a/b")
      #expect(echo.query == "x=1&q=cat&q=dog%20%26%20mouse&eq=%3Dx")
      #expect(echo.header("X-Trace") == ["abc"])
      #expect(echo.header("X-Spaced") == ["two words"])
      #expect(echo.header("Content-Type") == ["application/json"])
      #expect(echo.body == #"{"name":"Ann","age":3,"quoted":"3","tags":["a",1],"esc:aped":"v"}"#)
    }
  }

  @Test func getIsTheDefaultAndAMethodWordComesFirst() async throws {
    try await withDemoServer { server in
      let port = server.httpBaseURL.split(separator: ":").last.map(String.init) ?? ""
      let get = try await Self.call(["127.0.0.1:\(port)/_demo/echo", "q==cat"])
      #expect(get.status == 0, "\(get.stderr)")
      let echo = try Echo(get.stdout)
      #expect(echo.method == "GET" && echo.query == "q=cat" && echo.body == "")
      let delete = try await Self.call(["DELETE", server.httpBaseURL + "/_demo/echo/7"])
      #expect(delete.status == 0, "\(delete.stderr)")
      #expect(try Echo(delete.stdout).method == "DELETE")
    }
  }

  /// `-X METHOD`, as curl and xh write it: the method of a URL call; refused where it would be
  /// ignored or contradicts the METHOD word.
  @Test func dashXGivesTheMethod() async throws {
    try await withDemoServer { server in
      let patch = try await Self.call(["-X", "PATCH", server.httpBaseURL + "/_demo/echo/7", "name=Ann"])
      #expect(patch.status == 0, "\(patch.stderr)")
      #expect(try Echo(patch.stdout).method == "PATCH")
      let same = try await Self.call(["--request", "DELETE", "DELETE", server.httpBaseURL + "/_demo/echo/7"])
      #expect(same.status == 0, "\(same.stderr)")
      #expect(try Echo(same.stdout).method == "DELETE")
      let clash = try await Self.call(["-X", "PUT", "DELETE", server.httpBaseURL + "/_demo/echo/7"])
      #expect(clash.status == 2, "\(clash.stderr)")
      #expect(clash.stderr.contains("-X PUT and the METHOD DELETE before the URL disagree"), "\(clash.stderr)")
      let registry = try await Self.call(["-X", "POST", "books.catalogue.list"])
      #expect(registry.status == 2, "\(registry.stderr)")
      #expect(registry.stderr.contains("-X POST goes with a URL; the registry says the method"), "\(registry.stderr)")
      let lower = try await Self.call(["-X", "post", server.httpBaseURL + "/_demo/echo"])
      #expect(lower.status == 2 && lower.stderr.contains("\"post\" is not an HTTP method"), "\(lower.stderr)")
    }
  }

  @Test func filesStdinAndWholeBodies() async throws {
    let text = try temporaryFile("note.txt", "hello\nworld\n")
    let json = try temporaryFile("meta.json", #"{"k": [1, 2.50]}"#)
    try await withDemoServer { server in
      let fields = try await Self.call(
        [
          "PUT", server.httpBaseURL + "/_demo/echo", "note=@" + text, "meta:=@" + json, "id=@-.id",
        ], stdin: Data(#"{"id": 42}"#.utf8))
      #expect(fields.status == 0, "\(fields.stderr)")
      let echo = try Echo(fields.stdout)
      #expect(echo.method == "PUT")
      #expect(echo.body == #"{"note":"hello\nworld","meta":{"k":[1,2.50]},"id":42}"#)

      let whole = try await Self.call(
        [server.httpBaseURL + "/_demo/echo", "-d", "@-", "Content-Type:application/vnd.x+json"],
        stdin: Data(#"{"raw": true}"#.utf8))
      #expect(whole.status == 0, "\(whole.stderr)")
      let wholeEcho = try Echo(whole.stdout)
      #expect(wholeEcho.method == "POST")
      #expect(wholeEcho.body == #"{"raw": true}"#)
      #expect(wholeEcho.header("Content-Type") == ["application/vnd.x+json"])
    }
  }

  @Test func formAndMultipartBodies() async throws {
    let file = try temporaryFile("rows.csv", "title\nDune\n")
    try await withDemoServer { server in
      let form = try await Self.call([server.httpBaseURL + "/_demo/echo", "--form", "a=1", "b=two words&more"])
      #expect(form.status == 0, "\(form.stderr)")
      let formEcho = try Echo(form.stdout)
      #expect(formEcho.header("Content-Type") == ["application/x-www-form-urlencoded"])
      #expect(formEcho.body == "a=1&b=two%20words%26more")

      let multipart = try await Self.call([server.httpBaseURL + "/_demo/echo", "title=Hi", "csv@" + file])
      #expect(multipart.status == 0, "\(multipart.stderr)")
      let echo = try Echo(multipart.stdout)
      let type = try #require(echo.header("Content-Type").first)
      #expect(type.hasPrefix("multipart/form-data; boundary="))
      let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
      let expected =
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHi\r\n"
        + "--\(boundary)\r\nContent-Disposition: form-data; name=\"csv\"; filename=\"rows.csv\"\r\n"
        + "Content-Type: text/csv\r\n\r\ntitle\nDune\n\r\n--\(boundary)--\r\n"
      #expect(echo.body == expected)
    }
  }

  @Test func aHeaderItemRemovesAHeaderAndBasicAuthIsMasked() async throws {
    try await withDemoServer { server in
      let r = try await Self.call([
        server.httpBaseURL + "/_demo/echo", "-H", "X-Gone: 1", "X-Gone:", "-a", "ann:s3cret-pw", "-v",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let echo = try Echo(r.stdout)
      #expect(echo.header("X-Gone").isEmpty)
      #expect(echo.header("Authorization") == ["Basic " + Data("ann:s3cret-pw".utf8).base64EncodedString()])
      #expect(r.stderr.contains("Authorization: Basic ***"))
      #expect(!r.stderr.contains("s3cret") && !r.stderr.contains(Data("ann:s3cret-pw".utf8).base64EncodedString()))
    }
  }

  @Test func itemsBesideARegistryEndpointsParameters() async throws {
    let registry = try temporaryFile(
      "echo.json",
      #"""
      {"api": "echo", "environments": {"local": {"base_url": "http://127.0.0.1:1"}},
       "endpoints": {"status": {"kind": "rest", "path": "/_demo/echo/jobs/{job_id}",
         "params": {"job_id": {"in": "path", "required": true}}}}}
      """#)
    try await withDemoServer { server in
      let r = try await Self.call([
        "echo.status", "job_id=1", "X-Trace:abc", "q==cat", "--registry", registry, "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let echo = try Echo(r.stdout)
      #expect(echo.path == "/_demo/echo/jobs/1")
      #expect(echo.query == "q=cat", "q==cat is a query parameter, never q=%3Dcat")
      #expect(echo.header("X-Trace") == ["abc"])
    }
  }

  @Test func selectOutputStatusAndTimeoutWorkAsForRegistryCalls() async throws {
    try await withDemoServer { server in
      let select = try await Self.call([server.httpBaseURL + "/_demo/echo", "q==cat", "--select", ".query"])
      #expect(select.status == 0 && select.stdout == "\"q=cat\"\n", "\(select.stderr)")
      let missing = try await Self.call([server.httpBaseURL + "/no/such/route"])
      #expect(missing.status == 4, "a 404 is exit 4: \(missing.stderr)")
      #expect(missing.stderr.contains("hint: check the URL"), "no registry endpoint to describe: \(missing.stderr)")
      #expect(!missing.stderr.contains("apx describe"), "\(missing.stderr)")
      let refused = try await Self.call(["http://127.0.0.1:1/x", "--connect-timeout", "2"])
      #expect(refused.status == 6, "\(refused.stderr)")
    }
  }

  @Test func timeoutRetryAndRedirectsWorkAsForRegistryCalls() async throws {
    try await withDemoServer { server in
      let stalled = try await Self.call([server.httpBaseURL + "/_demo/stall", "ms==20000", "--timeout", "0.5"])
      #expect(stalled.status == 7, "a timeout is exit 7: \(stalled.stderr)")

      // One planned 503, retried by the default policy (GET is safe to repeat).
      let flaky = server.httpBaseURL + "/api/v2/flaky"
      let retried = try await Self.call([flaky, "key==adhoc-1", "fail==1", "retry_after==0"])
      #expect(retried.status == 0, "\(retried.stderr)")
      #expect(try JSONParser.parse(retried.stdout)["attempts"] == .number("2"))
      let once = try await Self.call([flaky, "key==adhoc-2", "fail==1", "retry_after==0", "--no-retry"])
      #expect(once.status == 5, "a 503 is exit 5: \(once.stderr)")

      let redirected = try await Self.call([
        "PUT", server.httpBaseURL + "/_demo/redirect", "status==307", "to==\(server.httpBaseURL)/_demo/echo/landed",
        "name=Ann",
      ])
      #expect(redirected.status == 0, "\(redirected.stderr)")
      let echo = try Echo(redirected.stdout)
      #expect(echo.method == "PUT" && echo.path == "/_demo/echo/landed" && echo.body == #"{"name":"Ann"}"#)
    }
  }

  /// A URL names its server: a refused connection's hint speaks of the URL's host, port
  /// and scheme, not of --base-url, --env or --demo, which a URL call refuses.
  @Test(arguments: [
    (["call", "http://127.0.0.1:1/x"], "http://127.0.0.1:1", "https://", Int32(6)),
    (["call", "grpc://127.0.0.1:1/a.B/C"], "grpc://127.0.0.1:1", "grpcs://", Int32(64 + 14)),
    (["list", "grpc://127.0.0.1:1"], "grpc://127.0.0.1:1", "grpcs://", Int32(64 + 14)),
    (["describe", "grpc://127.0.0.1:1/a.B/C"], "grpc://127.0.0.1:1", "grpcs://", Int32(64 + 14)),
  ])
  func aRefusedURLsHintTalksAboutTheURL(_ command: [String], _ origin: String, _ scheme: String, _ status: Int32)
    async throws
  {
    let r = try await APXProcess.run(command + ["--connect-timeout", "2", "--no-retry"])
    let hint = "nothing accepted the connection at \(origin)"
    #expect(r.status == status, "\(r.stderr)")
    #expect(r.stderr.contains(hint) && r.stderr.contains("host and port in the URL"), "\(r.stderr)")
    #expect(r.stderr.contains("(\(scheme) if the server speaks TLS)"), "\(r.stderr)")
    #expect(!r.stderr.contains("--base-url") && !r.stderr.contains("--env") && !r.stderr.contains("--demo"))
  }

  /// A host that does not resolve (`.invalid` never does, RFC 6761) ends the call at once
  /// with exit 6 (network), REST and gRPC alike, and the hint speaks of the URL or the base
  /// URL. gRPC used to hang on its retries: grpc-swift queued them with no deadline.
  @Test(arguments: [
    (["call", "http://nonexistent.invalid/x"], "the host in the URL"),
    (["call", "grpc://nonexistent.invalid:50051/a.B/C", "-d", "{}"], "the host in the URL"),
    (["list", "grpc://nonexistent.invalid:50051"], "the host in the URL"),
    (
      ["call", "classnotes.lessons.get", "id=les_0001", "--base-url", "grpc://nonexistent.invalid:50051"],
      "the host in the base URL"
    ),
  ])
  func anUnresolvedHostFailsAtOnce(_ command: [String], _ hint: String) async throws {
    let r = try await APXProcess.run(command + ["--retry", "3"], timeout: 60)
    #expect(r.status == 6, "\(r.stderr)")
    #expect(r.stderr.contains("could not resolve the host nonexistent.invalid"), "\(r.stderr)")
    #expect(r.stderr.contains("check the spelling of \(hint)"), "\(r.stderr)")
  }

  /// A name the resolver says does not exist (`.invalid` never resolves, RFC 6761) is tried once
  /// however many attempts `--retry` allows, for REST, SSE and gRPC alike: it will not resolve on
  /// a retry (curl's `--retry` does not retry it either). Skipped, saying why, where this machine's
  /// resolver cannot be reached: its "temporary failure" may pass, so apx rightly retries it.
  @Test(
    .enabled(if: ResolverAnswer.invalidNameIsNotFound, "the resolver gave no definite answer for a .invalid name"),
    arguments: [
      ["call", "http://nonexistent.invalid/x"],
      ["call", "books.imports.watch", "job_id=j", "--no-auth", "--base-url", "http://nonexistent.invalid"],
      ["call", "grpc://nonexistent.invalid:50051/a.B/C", "-d", "{}"],
    ])
  func aHostThatDoesNotExistIsTriedOnce(_ command: [String]) async throws {
    let r = try await APXProcess.run(command + ["--retry", "3", "-v"], timeout: 60)
    #expect(r.status == 6, "\(r.stderr)")
    #expect(r.stderr.contains("could not resolve the host nonexistent.invalid"), "\(r.stderr)")
    #expect(!r.stderr.contains("retrying") && !r.stderr.contains("reconnecting"), "\(r.stderr)")
    #expect(!r.stderr.contains("attempt 2"), "\(r.stderr)")
    #expect(r.stderr.components(separatedBy: "> GET ").count <= 2, "one request at most: \(r.stderr)")
    #expect(r.stderr.contains("not retried: a host name that does not resolve"), "\(r.stderr)")
  }

  @Test(arguments: [
    ("noseparator", "noseparator"), ("=value", "=value"), ("Bad Header:x", "Bad Header:x"),
    ("n:=[1,", "n:="), ("f@", "f@"), ("X-Evil:a\r\nb", "X-Evil"), ("==x", "==x"), (":=1", ":=1"),
    ("f=@/no/such/note.txt", "/no/such/note.txt"), ("j:=@/no/such/meta.json", "/no/such/meta.json"),
    ("j:=@NOTJSON", "is not valid JSON"), ("csv@/no/such/rows.csv", "/no/such/rows.csv"), ("x=@-.a[", ".a["),
  ])
  func malformedItemsAreUsageErrorsNamingThem(_ item: String, _ named: String) async throws {
    let notJSON = try temporaryFile("not.json", "not json")
    let item = item.replacing("NOTJSON", with: notJSON)
    let r = try await Self.call(["http://127.0.0.1:1/x", item], stdin: Data("{}".utf8))
    #expect(r.status == 2, "\(item): \(r.stderr)")
    #expect(r.stderr.contains(named), "\(item): \(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test(arguments: [
    ("http://127.0.0.1:99999/x", "99999"), ("ftp://example.com/x", "ftp"), ("http://ann:pw@127.0.0.1:1/", "password"),
    ("http:///x", "no host"), ("http://exa mple.com/", "space"), ("http://[::1/", "["),
    ("example.com", "http://example.com"), ("get", "API.ENDPOINT"), ("POST", "API.ENDPOINT"),
    ("http://127.0.0.1:0/", "port \"0\""), (":abc/x", "port \"abc\""), ("https://", "no host"),
    ("grpc://127.0.0.1:1", "does not name package.Service/Method"),
    ("grpc://127.0.0.1:1/NoDot", "names a service but no method"),
    ("grpc://127.0.0.1:1/a.B/C/D", "does not name package.Service/Method"),
  ])
  func malformedURLsAreUsageErrorsNamingThem(_ url: String, _ named: String) async throws {
    let r = try await Self.call([url])
    #expect(r.status == 2, "\(url): \(r.stderr)")
    #expect(r.stderr.contains(named), "\(url): \(r.stderr)")
  }

  @Test func aLowercaseMethodAndFlagsThatNameAnotherServerAreRefused() async throws {
    let lower = try await Self.call(["get", "http://127.0.0.1:1/x"])
    #expect(lower.status == 2 && lower.stderr.contains("\"get\" is not an HTTP method"), "\(lower.stderr)")
    let baseURL = try await Self.call(["http://127.0.0.1:1/x", "--base-url", "http://127.0.0.1:2"])
    #expect(baseURL.status == 2 && baseURL.stderr.contains("--base-url"), "\(baseURL.stderr)")
    let both = try await Self.call(["http://127.0.0.1:1/x", "-d", "{}", "a=1"])
    #expect(both.status == 2 && both.stderr.contains("-d"), "\(both.stderr)")
  }
}
