import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// A recipe input marked `"secret": true` stays out of the step lines on
/// stderr, the run's final error and the JUnit report, in any encoding apx sent it in.
@Suite struct RecipeSecretTests {
  @Test func aSecretInputIsMaskedInStepLinesErrorsAndJUnit() async throws {
    let secret = "s3cr3t/value+99"
    let path = try temporaryFile(
      "secret-input.json",
      """
      {
        "name": "secret-input",
        "inputs": { "token": { "type": "string", "secret": true } },
        "steps": [
          { "id": "caps", "call": "books.capabilities.get", "expect": { ".body.api": "${input.token}" } },
          { "id": "look", "call": "books.imports.status", "with": { "job_id": "${input.token}" } }
        ]
      }
      """)
    let report = TestScratch.root.appendingPathComponent("junit-\(UUID().uuidString).xml").path
    let state = TestScratch.root.appendingPathComponent("apx-secret-\(UUID().uuidString)").path
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        ["run", path, "token=\(secret)", "--test", "--report", "junit", report, "--base-url", server.httpBaseURL],
        environment: ["APX_STATE_DIR": state])
      // --test: the failed check and the failed call end the run with exit 9.
      #expect(r.status == 9, "\(r.stderr)")
      #expect(r.stderr.contains("***"), "\(r.stderr)")
      let xml = try String(contentsOfFile: report, encoding: .utf8)
      #expect(xml.contains("<failure"), "\(xml)")
      for shown in [secret, "s3cr3t%2Fvalue%2B99", "s3cr3t"] {
        #expect(!r.combined.contains(shown), "\(shown) on stderr: \(r.stderr)")
        #expect(!xml.contains(shown), "\(shown) in the report: \(xml)")
      }
    }
  }
}
