import APXDemoServer
import Foundation
import Testing

/// A user name and password in a base URL were sent as nothing and shown wherever the URL
/// was: apx refuses them in a registry file (exit 3) and on the command line (exit 2), and the
/// refusal shows `user:***@`.
@Suite("base URL with a user name and password")
struct BaseURLUserInfoTests {
  static let password = "hunter2-pw-77"

  static func expectRefused(_ r: APXResult, status: Int32, _ comment: String) {
    #expect(r.status == status, "\(comment): \(r.stderr)")
    #expect(r.stderr.contains("admin:***@"), "\(comment): \(r.stderr)")
    #expect(r.stderr.contains("user name or password"), "\(comment): \(r.stderr)")
    #expect(!(r.stdout + r.stderr).contains(password), "\(comment) shows the password")
  }

  static func registry(baseURL: String) throws -> String {
    try TestRegistry.make(
      """
      {"api": "creds", "environments": {"demo": {"base_url": "\(baseURL)"}},
       "endpoints": {"caps": {"kind": "rest", "path": "/api/v2/capabilities"}}}
      """)
  }

  @Test func aRegistryBaseURLIsAnInvalidDefinition() async throws {
    try await withDemoServer { server in
      let withPassword = server.httpBaseURL.replacingOccurrences(of: "://", with: "://admin:\(Self.password)@")
      let registry = try Self.registry(baseURL: withPassword)
      let validate = try await APXProcess.run(["validate", registry + "/creds.json"])
      Self.expectRefused(validate, status: 3, "apx validate")
      let call = try await APXProcess.run(["call", "creds.caps", "--registry", registry, "-v"])
      #expect(call.status == 3, "\(call.stderr)")
      #expect(!(call.stdout + call.stderr).contains(Self.password), "apx call shows the password")

      let templated = try Self.registry(
        baseURL: server.httpBaseURL.replacingOccurrences(of: "://", with: "://admin:${env:T_PW}@"))
      let fromVariable = try await APXProcess.run(
        ["validate", templated + "/creds.json"], environment: ["T_PW": Self.password])
      #expect(fromVariable.status == 3, "\(fromVariable.stderr)")
      #expect(fromVariable.stderr.contains("admin:***@"), "\(fromVariable.stderr)")
    }
  }

  @Test func aBaseURLFlagOrAdHocURLIsAUsageError() async throws {
    try await withDemoServer { server in
      let registry = try Self.registry(baseURL: server.httpBaseURL)
      let withPassword = server.httpBaseURL.replacingOccurrences(of: "://", with: "://admin:\(Self.password)@")
      for flags in [["-v"], ["--dry-run"], ["--curl"]] {
        let r = try await APXProcess.run(
          ["call", "creds.caps", "--registry", registry, "--base-url", withPassword] + flags)
        Self.expectRefused(r, status: 2, "--base-url \(flags)")
      }
      let adHoc = try await APXProcess.run(["call", withPassword + "/api/v2/capabilities", "-v"])
      Self.expectRefused(adHoc, status: 2, "an ad-hoc URL")
    }
  }
}
