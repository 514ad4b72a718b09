import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// The Fetching flags `apx import` and `apx mock` share: refused (exit 2) where nothing is
/// fetched, and used where something is.
@Suite("Fetching flags of import and mock")
struct FetchOptionsTests {
  @Test func aFetchingFlagWhereNothingIsFetchedIsRefused() async throws {
    let cases: [([String], String)] = [
      (["import", "openapi", "pets.json", "--timeout", "5"], "--timeout applies only to an http(s) URL SOURCE"),
      (["import", "openapi", "pets.json", "--proxy", "http://127.0.0.1:1"], "--proxy applies only to"),
      (["import", "grpc", "a.proto", "--timeout", "5"], "--timeout applies only to a grpc:// or grpcs:// TARGET"),
      (["import", "grpc", "grpc://127.0.0.1:9", "--insecure"], "--insecure applies only to a grpcs:// TARGET"),
      (["import", "graphql", "schema.graphql", "--cacert", "ca.pem"], "--cacert applies only to an http(s) URL"),
      (
        ["mock", "--openapi", "pets.json", "--proxy", "http://127.0.0.1:1"],
        "--proxy applies only to fetching --openapi URL"
      ),
      (["mock", "--insecure", "--timeout", "3"], "--timeout applies only to fetching --openapi URL"),
      (
        ["mock", "--record", "d", "--upstream", "http://127.0.0.1:9", "--noproxy", "*"],
        "--noproxy applies only to fetching --openapi URL"
      ),
    ]
    for (arguments, words) in cases {
      let r = try await APXProcess.run(arguments)
      #expect(r.status == 2 && r.stderr.contains(words), "\(arguments): \(r.stderr)")
    }
  }

  @Test func aDescriptionFromAFileWithRemoteRefsTakesThem() async throws {
    // With --allow-remote-refs a file's $refs may be fetched, so the flags apply: the error is
    // the missing file's, not a refusal.
    let r = try await APXProcess.run(["import", "openapi", "missing.json", "--allow-remote-refs", "--timeout", "5"])
    #expect(r.status != 0 && !r.stderr.contains("applies only to"), "\(r.stderr)")
  }
}

extension FetchOptionsTests {
  /// A credential in the description's URL is masked wherever the mock names the source, as
  /// `apx import` masks it.
  @Test func mockMasksACredentialInItsOpenAPIURL() async throws {
    try await withDemoServer { demo in
      // The demo has no such file: its 404 is the error, naming the URL.
      let url = demo.httpBaseURL + "/no-such-description.json?access_token=sekrit-4471"
      let r = try await APXProcess.run(["mock", "--openapi", url, "--timeout", "5"])
      #expect(r.status != 0, "\(r.stderr)")
      #expect(r.stderr.contains("no-such-description.json"), "\(r.stderr)")
      #expect(!r.stderr.contains("sekrit-4471"), "\(r.stderr)")
    }
  }
}

extension TinyproxyTests {
  @Test func mockFetchesItsOpenAPIURLThroughTheProxy() async throws {
    try await withDemoServer { demo in
      let url = demo.httpBaseURL + "/openapi.json"
      try await Tinyproxy.with { proxy in
        try await MockProcess.with(["--openapi", url, "--proxy", proxy.url(), "--timeout", "20"]) { mock in
          #expect(!mock.urls.isEmpty)
        }
        #expect(proxy.requests == ["GET \(url) HTTP/1.1"], "\(proxy.logText)")
      }
    }
  }
}
