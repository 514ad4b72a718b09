import APXDemoServer
import Foundation
import Testing

/// A call decodes and checks only the API-wide keys and the endpoint it calls; `apx validate`
/// checks everything. A broken endpoint elsewhere in the file neither stops nor changes a call.
@Suite("registry: a call checks what it uses")
struct RegistryPartialLoadCLITests {
  static func registry(baseURL: String) throws -> String {
    let text = """
      {
        "api": "part",
        "environments": { "demo": { "base_url": "\(baseURL)" } },
        "endpoints": {
          "small": { "kind": "rest", "path": "/api/v2/bench/small" },
          "broken": { "kind": "rest", "method": "FETCH", "path": "/api/v2/bench/{id}" }
        }
      }
      """
    return try temporaryFile("part.json", text)
  }

  @Test func aCallWorksBesideABrokenEndpointThatValidateAndItsOwnCallReport() async throws {
    try await withDemoServer { server in
      let file = try Self.registry(baseURL: server.httpBaseURL)
      defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
      let env = ["APX_REGISTRY": file]
      let call = try await APXProcess.run(["call", "part.small"], environment: env)
      #expect(call.status == 0, "\(call.stderr)")
      #expect(call.stdout.contains("\"id\":42"), "\(call.stdout)")
      let adHoc = try await APXProcess.run(["call", server.httpBaseURL + "/api/v2/bench/small"], environment: env)
      #expect(adHoc.status == 0, "\(adHoc.stderr)")

      let broken = try await APXProcess.run(["call", "part.broken", "id=1"], environment: env)
      #expect(broken.status == 3, "\(broken.stderr)")
      #expect(broken.stderr.contains("\(file):6:"), "\(broken.stderr)")
      #expect(broken.stderr.contains("unknown HTTP method \"FETCH\""), "\(broken.stderr)")

      let validate = try await APXProcess.run(["validate", file])
      #expect(validate.status == 3, "\(validate.stderr)")
      #expect(validate.stderr.contains("unknown HTTP method \"FETCH\""), "\(validate.stderr)")
      #expect(validate.stderr.contains("no parameter \"id\""), "\(validate.stderr)")

      let typo = try await APXProcess.run(["call", "part.smal"], environment: env)
      #expect(typo.status == 2, "\(typo.stderr)")
      #expect(typo.stderr.contains("part.small"), "\(typo.stderr)")
    }
  }
}
