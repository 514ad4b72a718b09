import APXDemoServer
import Foundation
import Testing

/// One rule for credentials in parameters, the one `--save` uses (`CredentialParams`):
/// what `--save` keeps out of a registry file, `-v`, `--dry-run`, `--curl` and
/// `apx import openapi` mask.
@Suite("credential parameters are masked wherever a request is shown")
struct CredentialParamDisplayTests {
  static let secrets = ["tok-71a2xq", "key-83b4xq", "pw-95c6xq", "cs-10d7xq"]

  @Test func verboseDryRunAndCurlMaskCredentialItems() async throws {
    try await withDemoServer { server in
      let url = server.httpBaseURL + "/_demo/echo/find?access_token=tok-71a2xq"
      let items = ["api_key==key-83b4xq", "password=pw-95c6xq", "client_secret=cs-10d7xq", "author=Ann"]
      for flag in ["-v", "--dry-run", "--curl"] {
        let r = try await APXProcess.run(["call", url] + items + [flag])
        #expect(r.status == 0, "\(flag): \(r.stderr)")
        // -v's stdout is the echo server's answer, which repeats the request as sent.
        let shown = flag == "-v" ? r.stderr : r.stdout + r.stderr
        // -v shows no request body; the others show the harmless value as it is.
        if flag != "-v" { #expect(shown.contains("Ann"), "\(flag): \(shown)") }
        for secret in Self.secrets { #expect(!shown.contains(secret), "\(flag) shows \(secret): \(shown)") }
      }
    }
  }

  @Test func aKeyInAnAdHocPathIsMaskedAndNotSaved() async throws {
    let dir = try AdHocSaveTests.registry()
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["call", server.httpBaseURL + "/_demo/echo/api_key/key-83b4xq/find", "-v", "--save", "echo.find"],
        environment: ["APX_REGISTRY": dir])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(!r.stderr.contains("key-83b4xq"), "\(r.stderr)")
      #expect(r.stderr.contains("the value of api_key is not saved"), "\(r.stderr)")
      let file = try String(contentsOfFile: dir + "/echo.json", encoding: .utf8)
      #expect(!file.contains("key-83b4xq"), "\(file)")
      #expect(file.contains("/_demo/echo/api_key/{api_key}/find"), "\(file)")
    }
  }

  @Test func importOpenAPIMasksATokenInItsURL() async throws {
    let dir = try AdHocSaveTests.registry()
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["import", "openapi", server.httpBaseURL + "/openapi.json?access_token=tok-71a2xq", "--out", dir])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stderr.contains("access_token=***"), "\(r.stderr)")
      #expect(!(r.stdout + r.stderr).contains("tok-71a2xq"), "\(r.stdout)\(r.stderr)")
      let missing = try await APXProcess.run(
        ["import", "openapi", server.httpBaseURL + "/no-such.json?access_token=tok-71a2xq", "--out", dir])
      #expect(missing.status != 0)
      #expect(!(missing.stdout + missing.stderr).contains("tok-71a2xq"), "\(missing.stderr)")
    }
  }
}
