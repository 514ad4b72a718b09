import APXDemoServer
import APXTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `apx call` for REST endpoints, run as a real process against the demo backend.
@Suite("apx call (REST)")
struct RESTCallTests {
  static let gifsEnv = ["GIFS_API_KEY": "demo-key"]

  @Test func capabilitiesAsCompactJSONWhenPiped() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(["call", "books.capabilities.get", "--base-url", server.httpBaseURL])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.hasPrefix("{\"api\":\"books\""))
      #expect(!r.stdout.contains("\n  "), "piped output is compact")
    }
  }

  @Test func numberTextKeyOrderAndUnicodeArePreserved() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", "gifs.trending", "per_page:=2", "--base-url", server.httpBaseURL], environment: Self.gifsEnv)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"id\":9007199254740993"))
      #expect(r.stdout.contains("\"rating\":1.10"))
      #expect(r.stdout.contains("Café ☕ dance"))
      let idIndex = try #require(r.stdout.range(of: "\"id\":"))
      let slugIndex = try #require(r.stdout.range(of: "\"slug\":"))
      #expect(idIndex.lowerBound < slugIndex.lowerBound, "server key order kept")
    }
  }

  @Test func prettyOutputWithOutputJSON() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "books.capabilities.get", "-o", "json", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0)
      #expect(r.stdout.hasPrefix("{\n  \"api\": \"books\""))
      #expect(!r.stdout.contains("\u{1B}["), "no colour when stdout is not a terminal")
    }
  }

  @Test func selectIteratesArrays() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", "gifs.trending", "per_page:=3", "--select", ".data.data[].title", "--base-url", server.httpBaseURL],
        environment: Self.gifsEnv)
      #expect(r.status == 0, "\(r.stderr)")
      let lines = r.stdout.split(separator: "\n")
      #expect(lines.count == 3)
      #expect(lines.first == "\"Café ☕ dance\"")
    }
  }

  @Test func rawOutputIsByteExact() async throws {
    try await withDemoServer { server in
      let raw = try await APXProcess.run(
        ["call", "gifs.search", "q=cat", "-o", "raw", "--base-url", server.httpBaseURL], environment: Self.gifsEnv)
      #expect(raw.status == 0, "\(raw.stderr)")
      let (direct, _) = try await URLSession.shared.data(
        from: URL(string: server.httpBaseURL + "/api/v1/demo-key/gifs/search?q=cat")!)
      #expect(raw.stdoutBytes == direct)
    }
  }

  @Test func tableOutput() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        [
          "call", "gifs.trending", "per_page:=2", "--select", ".data.data", "-o", "table", "--base-url",
          server.httpBaseURL,
        ],
        environment: Self.gifsEnv)
      #expect(r.status == 0, "\(r.stderr)")
      let header = try #require(r.stdout.split(separator: "\n").first)
      #expect(header.hasPrefix("id"))
      #expect(header.contains("slug"))
    }
  }

  @Test func uploadsACSVFileAsTheBody() async throws {
    try await withDemoServer { server in
      let csv = try temporaryFile("books.csv", "title,author\nDune,Herbert\nEmma,Austen\n")
      let r = try await APXProcess.run([
        "call", "books.imports.create", "csv=@\(csv)", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"job_id\""))
      #expect(r.stdout.contains("\"total_rows\":2"))
      #expect(server.stats.importsCreated == 1)
    }
  }

  @Test func http4xxPrintsTheBodyOnStdoutTheStatusOnStderrAndExits4() async throws {
    try await withDemoServer { server in
      let csv = try temporaryFile("bad.csv", "name,author\nDune,Herbert\n")
      let r = try await APXProcess.run([
        "call", "books.imports.create", "csv=@\(csv)", "--base-url", server.httpBaseURL,
      ])
      #expect(r.status == 4)
      #expect(r.stdout.contains("missing_title_column"), "the server's answer is shown: \(r.stdout)")
      #expect(r.stderr.contains("400"))
      #expect(!r.stderr.contains("missing_title_column"), "and not twice: \(r.stderr)")
    }
  }

  @Test func http5xxExits5() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", "books.flaky.get", "key=k5", "fail:=9", "status:=503", "--no-retry", "--base-url", server.httpBaseURL])
      #expect(r.status == 5, "\(r.stderr)")
      #expect(r.stderr.contains("503"))
    }
  }

  @Test func unknownEndpointSuggestsNearestNames() async throws {
    let r = try await APXProcess.run(["call", "books.imports.creat"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("did you mean \"books.imports.create\""))
  }

  @Test func unknownAPIListsKnownOnes() async throws {
    let r = try await APXProcess.run(["call", "bookz.capabilities.get"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("\"books\""))
  }

  @Test func missingRequiredParameterNamesItAndShowsUsage() async throws {
    let r = try await APXProcess.run(["call", "books.imports.status", "--base-url", "http://127.0.0.1:9"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("\"job_id\""))
    #expect(r.stderr.contains("apx call books.imports.status job_id="))
  }

  @Test func connectionRefusedExits6WithAHint() async throws {
    // Port 9 (discard) is closed on loopback.
    let r = try await APXProcess.run(["call", "books.capabilities.get", "--base-url", "http://127.0.0.1:9"])
    #expect(r.status == 6)
    #expect(r.stderr.contains("connection refused"))
    #expect(r.stderr.contains("hint:"))
  }

  @Test func timeoutExits7() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "slow", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"stall": {"kind": "rest", "path": "/_demo/stall"}}}
        """)
      // The demo answers /_demo/stall only after 60 s (or when it stops), so the limit
      // strikes first however fast or slow the machine is. (The old test streamed a huge
      // body: it passed only when a loaded machine sent the response head after the limit,
      // since --timeout stops a REST call only until the head arrives.)
      let r = try await APXProcess.run(["call", "slow.stall", "--timeout", "0.5", "--registry", registry])
      #expect(r.status == 7, "\(r.stderr)")
      #expect(r.stdout.isEmpty)
      // A loaded machine may use up the limit before the connection is made: that is the
      // same --timeout, worded for where it struck ("could not connect ... in time").
      #expect(r.stderr.contains("timed out") || r.stderr.contains("in time"), "\(r.stderr)")
    }
  }

  @Test func rawOutputOfAManyChunkBodyIsByteExact() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "bulk", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"bytes": {"kind": "rest", "path": "/api/v2/bench/bytes",
                                 "params": {"size": {"in": "query", "type": "integer"}}}}}
        """)
      // Many network chunks through BodyPump and OutputStream (large blocks go straight to
      // stdout, small ones through its buffer): every byte must arrive once, in order.
      let size = 1_000_003
      let r = try await APXProcess.run(["call", "bulk.bytes", "size:=\(size)", "-o", "raw", "--registry", registry])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdoutBytes.count == size)
      // The demo repeats bytes 0...255 (its 64 KiB chunks are a multiple of 256).
      let firstWrong = r.stdoutBytes.withUnsafeBytes { raw in
        raw.indices.first { raw[$0] != UInt8(truncatingIfNeeded: $0) }
      }
      #expect(firstWrong == nil, "first wrong byte at offset \(firstWrong ?? -1)")
    }
  }

  @Test func timeoutAlsoBoundsABodyThatStalls() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "slow", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {"body": {"kind": "rest", "path": "/_demo/stall", "params": {"in_body": {"in": "query", "type": "integer"}}}}}
        """)
      // Headers and the first bytes come at once, then the body stalls for 60 s: the limit
      // must still strike (AsyncHTTPClient's own deadline ends with the response head).
      let r = try await APXProcess.run(
        ["call", "slow.body", "in_body:=1", "--timeout", "0.5", "-o", "raw", "--registry", registry], timeout: 30)
      #expect(r.status == 7, "\(r.stderr)")
      #expect(r.stderr.contains("timed out") || r.stderr.contains("in time"), "\(r.stderr)")
    }
  }

  @Test func invalidRegistryExits3WithLocation() async throws {
    let registry = try TestRegistry.make(
      """
      {"api": "broken",
       "endpoints": {"a": {"kind": "rest", "methd": "GET", "path": "/x"}}}
      """, name: "broken")
    let r = try await APXProcess.run(["call", "broken.a", "--registry", registry])
    #expect(r.status == 3)
    #expect(r.stderr.contains("broken.json:2:47:"))
    #expect(r.stderr.contains("did you mean \"method\""))
  }

  @Test func headersFromTheCommandLineAndVerboseOutput() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", "books.capabilities.get", "-H", "X-Trace: abc", "-v", "--base-url", server.httpBaseURL])
      #expect(r.status == 0)
      #expect(r.stderr.contains("> GET \(server.httpBaseURL)/api/v2/capabilities"))
      #expect(r.stderr.contains("> X-Trace: abc"))
      #expect(r.stderr.contains("< HTTP/1.1 200"))
      #expect(!r.stdout.contains("X-Trace"), "verbose output stays off stdout")
    }
  }

  @Test func apiKeyInPathIsMaskedInVerboseOutput() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", "gifs.trending", "-v", "--base-url", server.httpBaseURL], environment: Self.gifsEnv)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(!r.stderr.contains("demo-key"))
      #expect(r.stderr.contains("/api/v1/***/gifs/trending"))
    }
  }

  @Test func missingAPIKeyIsAnAuthError() async throws {
    let registry = try TestRegistry.make(
      """
      {"api": "keyed", "environments": {"demo": {"base_url": "http://127.0.0.1:9"}},
       "auth": {"type": "api_key", "in": "path", "name": "api_key", "value": "${env:APX_TEST_UNSET_KEY}"},
       "endpoints": {"trending": {"kind": "rest", "path": "/api/v1/{api_key}/gifs/trending"}}}
      """)
    let r = try await APXProcess.run(["call", "keyed.trending", "--registry", registry])
    #expect(r.status == 8)
    #expect(r.stderr.contains("APX_TEST_UNSET_KEY"), "\(r.stderr)")
  }

  @Test func parameterChainingFromStdin() async throws {
    try await withDemoServer { server in
      let csv = try temporaryFile("books.csv", "title\nDune\n")
      let created = try await APXProcess.run([
        "call", "books.imports.create", "csv=@\(csv)", "--base-url", server.httpBaseURL,
      ])
      #expect(created.status == 0)
      let status = try await APXProcess.run(
        ["call", "books.imports.status", "job_id=@-.job_id", "--base-url", server.httpBaseURL],
        stdin: created.stdoutBytes)
      #expect(status.status == 0, "\(status.stderr)")
      #expect(status.stdout.contains("\"job_id\""))
    }
  }

  @Test func multipartFilePartAndJSONBodyFromStdin() async throws {
    try await withDemoServer { server in
      let registry = try TestRegistry.make(
        """
        {"api": "up", "environments": {"demo": {"base_url": "\(server.httpBaseURL)"}},
         "endpoints": {
           "multipart": {"kind": "rest", "method": "POST", "path": "/api/v2/imports",
                         "params": {"file": {"in": "multipart", "type": "file", "content_type": "text/csv", "required": true},
                                    "note": {"in": "multipart"}}},
           "echo": {"kind": "rest", "method": "POST", "path": "/api/v2/imports", "expect_status": [415]}}}
        """)
      let csv = try temporaryFile("m.csv", "title\nDune\nEmma\nUlysses\n")
      let r = try await APXProcess.run(["call", "up.multipart", "file=@\(csv)", "note=hello", "--registry", registry])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("\"total_rows\":3"))
      // A JSON body from stdin is not CSV: the server answers 415, which this endpoint expects.
      let d = try await APXProcess.run(
        ["call", "up.echo", "-d", "@-", "--registry", registry], stdin: Data("{\"a\":1}".utf8))
      #expect(d.status == 0, "\(d.stderr)")
    }
  }

  @Test func badParameterTypeIsAUsageError() async throws {
    let r = try await APXProcess.run(
      ["call", "gifs.trending", "per_page=many", "--base-url", "http://127.0.0.1:9"], environment: Self.gifsEnv)
    #expect(r.status == 2)
    #expect(r.stderr.contains("per_page must be a whole number"))
  }
}

/// Writes a throwaway registry folder with one file.
enum TestRegistry {
  static func make(_ json: String, name: String? = nil) throws -> String {
    let dir = TestScratch.root.appendingPathComponent("apx-registry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let apiName =
      name ?? (json.range(of: "\"api\": \"").map { r in String(json[r.upperBound...].prefix { $0 != "\"" }) } ?? "api")
    try json.write(to: dir.appendingPathComponent("\(apiName).json"), atomically: true, encoding: .utf8)
    return dir.path
  }
}
