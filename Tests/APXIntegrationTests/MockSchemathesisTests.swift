import APXTestSupport
import Foundation
import Testing

/// An implementation independent of ours judges `apx mock --openapi`: schemathesis sends
/// requests generated from the Swagger Petstore description (valid and invalid ones, with
/// credentials of the declared kinds) and checks every answer against the response schemas the
/// description declares. Needs Python's schemathesis (installed by `.ci/run`); outside CI
/// the test is skipped, saying why, when it is missing; under `.ci/run` (APX_CI) it fails.
/// Discord's 3.1 description is judged the same way by `scripts/schemathesis-mock.sh`, which CI
/// runs after the suites: beside them it kept child-process slots for minutes on 2 cores.
@Suite("apx mock, judged by schemathesis", .timeLimit(.minutes(10)))
struct MockSchemathesisTests {
  static let missing =
    "python3 with schemathesis is not installed (python3 -m pip install schemathesis, in a venv where pip refuses, as .ci/run does)"

  /// Whether the test runs: schemathesis is there, or CI requires it (and the test then fails).
  static func enabled() async -> Bool {
    await available.value || ProcessInfo.processInfo.environment["APX_CI"] != nil
  }

  private static let available = Task {
    let check = try? await ChildProcess.run(
      "/usr/bin/env", ["python3", "-c", "import schemathesis"], environment: ProcessInfo.processInfo.environment,
      timeout: 60)
    return check?.status == 0 && check?.signaled == false
  }

  @Test(
    .enabled(Comment(rawValue: Self.missing)) { await Self.enabled() },
    arguments: ["swagger-petstore-3.0.yaml", "oai-petstore-3.0.yaml", "swagger-petstore-2.0.json"])
  func noAnswerViolatesItsSchema(fixture: String) async throws {
    #expect(await Self.available.value, "\(Self.missing)")
    let description = APXProcess.packageRoot.appendingPathComponent("Tests/Fixtures/openapi/\(fixture)").path
    try await MockProcess.with(["--openapi", description]) { mock in
      let base = try #require(mock.urls.values.first)
      let run = try await ChildProcess.run(
        "/usr/bin/env",
        [
          "python3", "-m", "schemathesis.cli", "run", description, "--url", base,
          "--checks", "response_schema_conformance", "--max-examples", "10", "--seed", "1",
          "-H", "Authorization: Bearer any-token", "-H", "api_key: any-key",
        ],
        environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 },
        workingDirectory: TestScratch.root.path, timeout: 400)
      let output = String(decoding: run.stdout + run.stderr, as: UTF8.self)
      #expect(run.status == 0 && !run.signaled, "\(output)")
      #expect(output.contains("passed"), "\(output)")
    }
  }
}
