import APXCore
import APXTestSupport
import Foundation
import Synchronization
import Testing

/// `apx mock --record DIR --upstream URL` in front of the demo backend, then `apx mock --replay DIR`
/// answering the same calls.
@Suite("apx mock --record")
struct MockRecordTests {
  static let token = "rec0rdedBearerT0ken-9f3a"

  /// The calls made through the recording proxy and again against the replay, each as apx
  /// arguments after the base URL's path.
  static func calls(_ base: String) -> [[String]] {
    [
      ["call", base + "/api/v2/bench/small"],
      ["call", base + "/_demo/headers", "-H", "Authorization: Bearer \(token)"],
      ["call", base + "/_demo/ticks?n=3&stream=true", "-H", "Accept: text/event-stream", "--until-event", "done"],
      ["call", "POST", base + "/_demo/ticks", "n:=2"],
    ]
  }

  @Test func exchangesAreRecordedThenAnsweredBackTheSameWithoutTheSecrets() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)/rec").path
    let recorded = Mutex<[APXResult]>([])
    try await withDemoServer { server in
      let upstream = server.httpBaseURL
      try await MockProcess.with(["--record", dir, "--upstream", upstream]) { mock in
        let url = try #require(mock.urls["record"], "\(mock.urls)")
        for call in Self.calls(url) {
          let r = try await APXProcess.run(call)
          #expect(r.status == 0, "\(call): \(r.stderr)")
          recorded.withLock { $0.append(r) }
        }
        // A form body of a token request: its secret and the token answered are not kept.
        let token = try await APXProcess.run([
          "call", "POST", url + "/oauth/token", "--form", "grant_type=client_credentials", "client_id=demo-client",
          "client_secret=demo-secret",
        ])
        #expect(token.status == 0, "\(token.stderr)")
        let accessToken = try JSONParser.parse(Array(token.stdout.utf8))["access_token"]?.stringValue ?? ""
        #expect(accessToken.count > 8, "\(token.stdout)")
        recorded.withLock { $0.append(token) }
      }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".har") }
    #expect(files.count == 1, "\(files)")
    let text = try String(contentsOfFile: dir + "/" + files[0], encoding: .utf8)
    #expect(text.contains("Bearer ***"))
    for secret in [Self.token, Data("Bearer \(Self.token)".utf8).base64EncodedString(), "demo-secret"] {
      #expect(!text.contains(secret), "\(secret) is in the recording")
    }
    let outputs = recorded.withLock { $0 }
    let accessToken = try JSONParser.parse(Array(outputs[4].stdout.utf8))["access_token"]?.stringValue ?? ""
    #expect(!text.contains(accessToken), "the access token is in the recording")
    let entries = try HARTests.entries(dir + "/" + files[0])
    #expect(entries.count == 5)
    let events = (entries[2]["_apx"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
    #expect(events.count == 4 && events.allSatisfy { $0["time"] is NSNumber }, "\(entries[2])")
    try await HARTests.expectValid([dir + "/" + files[0]])

    for paced in [false, true] {
      try await MockProcess.with(["--replay", dir] + (paced ? [] : ["--full-speed"])) { mock in
        let url = try #require(mock.urls["replay"], "\(mock.urls)")
        for (call, first) in zip(Self.calls(url), outputs) {
          let again = try await APXProcess.run(call)
          #expect(again.status == first.status, "\(call): \(again.stderr)")
          // The echoed credential was masked in the recording, so the replay answers `***`.
          #expect(again.stdout == first.stdout.replacingOccurrences(of: "Bearer \(Self.token)", with: "***"), "\(call)")
        }
      }
    }
  }

  /// Credentials the record must not keep, in shapes beyond a bearer and a JSON token: a
  /// multipart `password` field, a custom `X-...-Pass` header, a token answered as a form (as
  /// GitHub's legacy token endpoint does), and JSON sent as `text/plain`.
  @Test func credentialsInFormsMultipartAndCustomHeadersAreNotKept() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)/rec").path
    let secrets = ["mp-pass-7788", "hdr-pass-3344", "frm-tok-5510", "txt-secret-9911"]
    let upload = try temporaryFile("upload.txt", "the file")
    try await withHostileServer({ head in
      head.hasPrefix("POST /token")
        ? HostileHTTPServer.response(
          headers: [("Content-Type", "application/x-www-form-urlencoded")],
          body: Array("access_token=\(secrets[2])&token_type=bearer&scope=repo".utf8))
        : HostileHTTPServer.response(headers: [("Content-Type", "application/json")], body: Array(#"{"ok":true}"#.utf8))
    }) { upstream in
      try await MockProcess.with(["--record", dir, "--upstream", upstream.baseURL]) { mock in
        let url = try #require(mock.urls["record"], "\(mock.urls)")
        for call in [
          ["call", "POST", url + "/upload", "--form", "password=\(secrets[0])", "file@\(upload)"],
          ["call", url + "/me", "X-Custom-Pass:\(secrets[1])"],
          ["call", "POST", url + "/token", "--form", "grant_type=client_credentials", "client_id=c1"],
          [
            "call", "POST", url + "/notes", "-H", "Content-Type: text/plain", "-d", #"{"api_secret":"\#(secrets[3])"}"#,
          ],
        ] {
          let r = try await APXProcess.run(call)
          #expect(r.status == 0, "\(call): \(r.stderr)")
        }
      }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".har") }
    let text = try String(contentsOfFile: dir + "/" + (files.first ?? "none"), encoding: .utf8)
    #expect(text.contains("/upload") && text.contains("/token"), "\(text)")
    for secret in secrets {
      #expect(!text.contains(secret), "\(secret) is in the recording")
    }
  }

  /// The answer flows through as it arrives: the demo's stalled body sends its first bytes, waits,
  /// then sends the rest, and the first bytes reach the client before the rest exists.
  @Test func answersFlowThroughAsTheyArrive() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)").path
    try await withDemoServer { server in
      try await MockProcess.with(["--record", dir, "--upstream", server.httpBaseURL]) { mock in
        let port = try mock.port("record")
        let request = "GET /_demo/stall?ms=3000&in_body=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let (first, all) = try await Self.firstBytes(port: port, request, until: "{\"stalled_ms\": ")
        #expect(first.contains("{\"stalled_ms\": ") && !first.contains("3000}"), "\(first)")
        #expect(all.contains("3000}"), "\(all)")
      }
    }
  }

  /// An exchange still under way when the proxy is stopped is recorded with what it had.
  @Test func anExchangeUnderWayWhenStoppedIsRecorded() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)").path
    try await withDemoServer { server in
      try await MockProcess.with(["--record", dir, "--upstream", server.httpBaseURL]) { mock in
        let port = try mock.port("record")
        let request = "GET /_demo/stall?ms=60000&in_body=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let (first, _) = try await Self.firstBytes(port: port, request, until: "{\"stalled_ms\": ", thenClose: true)
        #expect(first.contains("{\"stalled_ms\": "), "\(first)")
      }
    }
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first)
    let entries = try HARTests.entries(dir + "/" + file)
    let content = (HARTests.response(try #require(entries.first))["content"] as? [String: Any]) ?? [:]
    #expect(content["text"] as? String == "{\"stalled_ms\": ", "\(entries)")
  }

  /// What had arrived once `marker` had, and then the whole answer (or, with `thenClose`,
  /// nothing more: the connection is closed), over a plain socket.
  static func firstBytes(port: Int, _ request: String, until marker: String, thenClose: Bool = false) async throws
    -> (String, String)
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            let fd = try connectLoopback(port: port)
            defer { _ = close(fd) }
            let bytes = Array(request.utf8)
            guard write(fd, bytes, bytes.count) == bytes.count else { throw SSEWatchTests.TestFailure("cannot send") }
            var out: [UInt8] = []
            var first: String?
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
              let n = read(fd, &buffer, buffer.count)
              if n <= 0 { break }
              out += buffer[0..<n]
              let text = String(decoding: out, as: UTF8.self)
              if first == nil, text.contains(marker) {
                first = text
                if thenClose { break }
              }
            }
            return (first ?? "", String(decoding: out, as: UTF8.self))
          })
      }.start()
    }
  }

  @Test func anUnreachableUpstreamIs502AndNothingIsRecorded() async throws {
    let dir = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)").path
    let result = try await MockProcess.with(["--record", dir, "--upstream", "http://127.0.0.1:1"]) { mock in
      let url = try #require(mock.urls["record"])
      let r = try await APXProcess.run(["call", url + "/things"])
      #expect(r.status == 5, "\(r.stderr)")
      #expect(r.stdout.contains("could not forward GET /things"), "\(r.stdout)")
    }
    #expect(String(decoding: result.stderr, as: UTF8.self).contains("apx mock: upstream failed: GET /things"))
    let files = try FileManager.default.contentsOfDirectory(atPath: dir)
    #expect(try HARTests.entries(dir + "/" + files[0]).isEmpty)
  }

  /// Two recording proxies, each the other's upstream: the request that comes back to the
  /// first carries its `Via` and is refused with 508, rather than going round without end.
  @Test func aLoopThroughAnotherProxyIs508() async throws {
    let scratch = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)").path
    let free = try Self.freePort()
    let run = try await MockProcess.with(["--record", scratch + "/a", "--upstream", "http://127.0.0.1:\(free)"]) {
      first in
      let a = try #require(first.urls["record"])
      try await MockProcess.with(["--record", scratch + "/b", "--upstream", a], port: free) { _ in
        let answer = try await LoopbackHTTP.request(port: try first.port("record"), "GET", "/things")
        #expect(answer.status == 508, "\(answer.status) \(answer.text)")
        #expect(answer.json?["title"] == .string("Loop Detected"), "\(answer.text)")
      }
    }
    let stderr = String(decoding: run.stderr, as: UTF8.self)
    #expect(stderr.contains("apx mock: loop: GET /things came back from http://127.0.0.1:\(free)"), "\(stderr)")
  }

  /// A port nothing listens on now, from the kernel's choice for a socket bound to port 0.
  static func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw SSEWatchTests.TestFailure("cannot bind a loopback socket") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  @Test func aRecordingThatCannotBeWrittenStopsTheMock() async throws {
    let scratch = TestScratch.root.appendingPathComponent("apx-record-\(UUID().uuidString)")
    let dir = scratch.appendingPathComponent("rec").path
    // Root may write into a read-only folder: the folder is taken away instead.
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let blocked = scratch.appendingPathComponent("file").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: blocked))
    let refused = try await APXProcess.run(["mock", "--record", blocked + "/rec", "--upstream", "http://127.0.0.1:1"])
    #expect(refused.status == 2, "\(refused.stderr)")
    #expect(refused.stderr.contains("--record: cannot make the folder"), "\(refused.stderr)")

    let result = try await withDemoServer { server in
      try await MockProcess.with(["--record", dir, "--upstream", server.httpBaseURL]) { mock in
        let url = try #require(mock.urls["record"])
        try FileManager.default.removeItem(atPath: dir)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir))
        _ = try await APXProcess.run(["call", url + "/api/v2/bench/small"])
        // The mock stops on its own: calls fail once it is gone (status 6, nothing listens).
        for _ in 0..<200 {
          if try await APXProcess.run(["call", url + "/api/v2/bench/small"]).status == 6 { return }
        }
        Issue.record("apx mock kept running after its recording failed")
      }
    }
    #expect(!result.signaled && result.status == 1, "\(result.status)")
    let stderr = String(decoding: result.stderr, as: UTF8.self)
    #expect(stderr.contains("could not be written, so apx mock stopped"), "\(stderr)")
  }

  @Test func flagsThatCannotApplyAreRefused() async throws {
    for (arguments, message) in [
      (["--record", "d"], "--record needs --upstream URL (HTTP) or --grpc-upstream"),
      (["--record", "d", "--grpc-upstream", "http://x"], "--grpc-upstream must be a grpc:// or grpcs:// address"),
      (["--record", "d", "--upstream", "http://x", "--grpc-port", "0"], "--grpc-port without --grpc-upstream"),
      (["--upstream", "http://x"], "--upstream go with --record"),
      (["--record", "d", "--upstream", "http://x", "--stateful"], "--stateful cannot be used with --record"),
      (
        ["--record", "d", "--upstream", "http://x", "--token-lifetime", "5"],
        "--token-lifetime cannot be used with --record"
      ),
      (["--record", "d", "--upstream", "http://x", "--replay", "a.har"], "--replay cannot be used with --record"),
      (["--record", "d", "--upstream", "http://x", "--insecure"], "apply only to an https:// or grpcs:// upstream"),
      (["--full-speed"], "--full-speed goes with --replay"),
      (
        ["--record", "d", "--upstream", "http://localhost:4999/api", "--port", "4999"],
        "--upstream http://localhost:4999/api is this proxy's own address (--port 4999)"
      ),
      (["--record", "d", "--upstream", "http://[::1]:4998", "--port", "4998"], "is this proxy's own address"),
    ] {
      let r = try await APXProcess.run(["mock"] + arguments)
      #expect(r.status == 2, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
    }
  }
}
