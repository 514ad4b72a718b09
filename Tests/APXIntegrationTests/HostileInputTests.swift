import Foundation
import Testing

/// Absurd numbers, deep paths and contradictory exit codes, through the real binary.
@Suite("Hostile input")
struct HostileInputTests {
  // MARK: out-of-range numbers are usage errors, not traps (exit 132)

  @Test(arguments: [
    (["--base-url", "http://127.0.0.1:65536"], "--base-url \"http://127.0.0.1:65536\" has the port \"65536\""),
    (["--connect-timeout", "1e300"], "--connect-timeout must be a number of seconds from 0.001 to 86400, got 1e+300"),
    (["--timeout", "1e300"], "--timeout must be a number of seconds from 0.001 to 1000000000, got 1e+300"),
    (["--timeout", "nan"], "--timeout must be a number of seconds"),
    (["--max-message-size", "99999999999"], "--max-message-size must be a number of bytes from 1 to 4294967295"),
    (["--retry", "999999999999999999999999999999"], "--retry"),
    (["--max-events", "999999999999999999999999999999"], "--max-events"),
  ])
  func absurdFlagsAreUsageErrors(_ flags: [String], _ message: String) async throws {
    let r = try await APXProcess.run(["call", "gifs.trending"] + flags)
    #expect(r.status == 2, "\(flags): \(r.status) \(r.stderr)")
    #expect(r.stderr.contains(message), "\(r.stderr)")
  }

  /// `apx demo --token-lifetime inf` (or 1e308) used to start, then trap on the first token
  /// it issued: the expiry did not fit a Duration. Refused before any port is opened.
  @Test(arguments: ["inf", "1e308", "1000000001"])
  func aTokenLifetimePastItsBoundIsAUsageError(_ value: String) async throws {
    let r = try await APXProcess.run(
      ["demo", "--port", "0", "--grpc-port", "0", "--token-lifetime", value], timeout: 30)
    #expect(r.status == 2, "\(value): \(r.status) \(r.stderr)")
    #expect(r.stderr.contains("--token-lifetime must be positive, at most 1000000000 seconds"), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  @Test func registryPortOutOfRangeFailsValidationWithALocation() async throws {
    let file = try temporaryFile(
      "bad.json",
      """
      {
        "api": "bad",
        "environments": { "prod": { "base_url": "http://127.0.0.1:99999" } },
        "endpoints": { "e": { "kind": "rest", "path": "/" } }
      }
      """)
    let r = try await APXProcess.run(["validate", file])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(
      r.stderr.contains("bad.json:3:43: error: base_url \"http://127.0.0.1:99999\" has the port \"99999\""),
      "\(r.stderr)")
    let call = try await APXProcess.run(["call", "bad.e", "--registry", file])
    #expect(call.status == 3, "\(call.stderr)")
  }

  @Test func templatedBaseURLResolvingToABadPortIsAUsageError() async throws {
    let file = try temporaryFile(
      "tpl.json",
      """
      { "api": "tpl", "environments": { "prod": { "base_url": "http://127.0.0.1:${env:TPL_PORT}" } },
        "endpoints": { "e": { "kind": "rest", "path": "/" } } }
      """)
    let r = try await APXProcess.run(["call", "tpl.e", "--registry", file], environment: ["TPL_PORT": "70000"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("resolves base_url to \"http://127.0.0.1:70000\" has the port"), "\(r.stderr)")
  }

  // MARK: deep paths are errors, not stack overflows (exit 139)

  @Test func selectPathOfFiveThousandSegmentsIsAUsageError() async throws {
    try await withDemoServer { server in
      let path = "." + Array(repeating: "a", count: 5000).joined(separator: ".")
      let r = try await APXProcess.run(
        ["call", "gifs.trending", "--select", path, "--base-url", server.httpBaseURL],
        environment: ["GIFS_API_KEY": "demo-key"])
      #expect(r.status == 2, "\(r.stderr.prefix(300))")
      #expect(r.stderr.contains("more than 1024 steps"))
    }
  }

  @Test func recipeCapturePathOfSixThousandSegmentsFailsValidation() async throws {
    let path = "." + Array(repeating: "x", count: 6000).joined(separator: ".")
    let recipe = try temporaryFile(
      "deep.json",
      """
      { "name": "deep", "steps": [ { "id": "t", "call": "gifs.trending", "capture": { "x": "\(path)" } } ] }
      """)
    let r = try await APXProcess.run(["validate", recipe])
    #expect(r.status == 3, "\(r.stderr.prefix(300))")
    #expect(r.stderr.contains("more than 1024 steps"))
  }

  // MARK: exit codes and messages that match the README

  @Test func unsetVariableInBaseURLIsAUsageError() async throws {
    let file = try temporaryFile(
      "envurl.json",
      """
      { "api": "envurl", "environments": { "prod": { "base_url": "${env:APX_TEST_UNSET_BASE}" } },
        "endpoints": { "e": { "kind": "rest", "path": "/" } } }
      """)
    let r = try await APXProcess.run(["call", "envurl.e", "--registry", file])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("the environment variable APX_TEST_UNSET_BASE is not set"))
  }

  @Test func inputDefaultThatRefersToItselfFailsValidation() async throws {
    let recipe = try temporaryFile(
      "selfref.json",
      """
      { "name": "selfref", "inputs": { "n": { "type": "string", "default": "${input.n}" } },
        "steps": [ { "id": "t", "call": "gifs.trending" } ] }
      """)
    let r = try await APXProcess.run(["validate", recipe])
    #expect(r.status == 3, "\(r.stderr)")
    #expect(r.stderr.contains("the default of input \"n\" refers to itself"), "\(r.stderr)")
  }

  @Test func validateSkipsTheRegistrySchema() async throws {
    let dir = APXProcess.endpoints
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
    #expect(files.contains("registry.schema.json"))
    let r = try await APXProcess.run(["validate"] + files.map { dir + "/" + $0 })
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("skipped \(dir)/registry.schema.json: a JSON Schema"), "\(r.stderr)")
  }

  @Test func grpcInvalidArgumentHintNamesTheEndpoint() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "classnotes.lessons.status", "lesson_id=les_0001", "delay_ms=99999999",
        "--base-url", "grpc://127.0.0.1:\(server.grpcPort)",
      ])
      #expect(r.status == 67, "\(r.stderr)")
      #expect(r.stderr.contains("`apx describe classnotes.lessons.status`"), "\(r.stderr)")
      #expect(!r.stderr.contains("ENDPOINT"))
    }
  }

  @Test func runVerbosePrintsRequestAndResponseLinesMasked() async throws {
    let recipe = try temporaryFile(
      "verbose.json",
      """
      { "name": "verbose", "steps": [ { "id": "t", "call": "gifs.trending", "with": { "per_page": 1 } } ] }
      """)
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", recipe, "-v", "--base-url", server.httpBaseURL], environment: ["GIFS_API_KEY": "demo-key"])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("> GET /api/v1/") || r.stderr.contains("> GET http://127.0.0.1"), "\(r.stderr)")
      #expect(r.stderr.contains("< HTTP/1.1 200"), "\(r.stderr)")
      #expect(!r.stderr.contains("demo-key"), "the API key is masked")
    }
  }

  /// An unknown endpoint's hint names the first 20 endpoints and counts the rest: it used to
  /// list every one (1.2 MB of stderr for an imported description of 100,000 paths).
  @Test func anUnknownEndpointsHintIsBoundedOnALargeRegistry() async throws {
    let endpoints = (0..<1000).map { #""e\#($0)": { "kind": "rest", "path": "/e\#($0)" }"# }
    let file = try temporaryFile(
      "big.json",
      #"{ "api": "big", "environments": { "p": { "base_url": "http://127.0.0.1:1" } }, "endpoints": {"#
        + endpoints.joined(separator: ",\n") + "} }")
    let r = try await APXProcess.run(["call", "big.nothing-like-it", "--registry", file])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("its endpoints: e0, e1, e2, e3"), "\(r.stderr)")
    #expect(r.stderr.contains(" and 980 more (see `apx list big`)"), "\(r.stderr)")
    #expect(r.stderr.utf8.count < 2000, "\(r.stderr.utf8.count) bytes")
  }
}
