import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// A credential named inside a JSON body (`nested:='{"refresh_token": ...}'`, `-d` JSON) is
/// masked by its name in `--dry-run` and in HAR, and by its value wherever it shows again (an
/// answer that echoes it), as headers and parameters are; `--show-secrets` shows it.
@Suite struct CredentialMemberMaskingTests {
  static let secret = "rt-s3cr3t-member"

  @Test func aNestedCredentialIsMaskedInDryRunUnlessShown() async throws {
    let nested = #"nested:={"refresh_token": "\#(Self.secret)", "note": "kept"}"#
    let dry = try await APXProcess.run(["call", "POST", "http://127.0.0.1:1/x", nested, "--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(!dry.stdout.contains(Self.secret), "\(dry.stdout)")
    #expect(dry.stdout.contains(#""refresh_token":"***""#) && dry.stdout.contains("kept"), "\(dry.stdout)")
    let shown = try await APXProcess.run([
      "call", "POST", "http://127.0.0.1:1/x", nested, "--dry-run", "--show-secrets",
    ])
    #expect(shown.stdout.contains(Self.secret), "\(shown.stdout)")
    let form = try await APXProcess.run(
      ["call", "POST", "http://127.0.0.1:1/x", "--form", "password=\(Self.secret)", "f@/dev/null", "--dry-run"])
    #expect(!form.stdout.contains(Self.secret), "\(form.stdout)")
  }

  @Test func aJSONBodysCredentialIsMaskedInHAR() async throws {
    let har = TestScratch.root.appendingPathComponent("apx-member-\(UUID().uuidString).har").path
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", server.httpBaseURL + "/_demo/echo", "-d", #"{"user": {"name": "ann", "password": "\#(Self.secret)"}}"#,
        "--har", har,
      ])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let request = HARTests.request(try #require(try HARTests.entries(har).first))
    let text = (request["postData"] as? [String: Any])?["text"] as? String ?? ""
    #expect(text == #"{"user": {"name": "ann", "password": "***"}}"#, "\(text)")
    // The echo answer holds it inside a JSON string: masked there too, by its value.
    let whole = try String(contentsOfFile: har, encoding: .utf8)
    #expect(!whole.contains(Self.secret), "the archive holds the password")
  }
}
