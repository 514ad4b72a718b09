import APXCore
import APXTestSupport
import Foundation
import Testing

/// `apx run RECIPE --mock` against the registry's own mock: the statuses the endpoints expect
/// and the answers they declare (books.json's import endpoints and GraphQL results, calc's
/// results, gifs' last page) carry a recipe to its end.
@Suite("recipes under --mock", .timeLimit(.minutes(5)))
struct RecipesUnderMockTests {
  @Test(arguments: [
    ("Recipes/import-csv.json", #"{"job_id":"imp_0001","status":"complete","rows":3,"events":4,"#),
    ("Recipes/import-csv-v1.json", #"{"job_id":"imp_0001","messages":3,"#),
    ("Recipes/calc-batch.json", #"{"sum":42,"difference":40}"#),
    ("Recipes/gifs-pages.json", #"{"pages":1,"titles":["Café ☕ dance"]}"#),
    ("Recipes/import-graphql.json", #"{"job_id":"imp_0001","results":3,"status":"COMPLETE","rows":3}"#),
  ])
  func theRecipesRunToTheirEnd(recipe: String, output: String) async throws {
    let state = TestScratch.root.appendingPathComponent("apx-mock-run-\(UUID().uuidString)").path
    let r = try await APXProcess.run(
      ["run", APXProcess.packageRoot.appendingPathComponent(recipe).path, "--mock"],
      environment: ["APX_STATE_DIR": state], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix(output), "\(r.stdout)")
  }

  /// An endpoint that declares no answers gets the success its `expect_status` names.
  @Test func anEndpointWithoutAnswersIsAnsweredWithTheStatusItExpects() async throws {
    let registry = try temporaryFile(
      "jobs.json",
      #"""
      {"api": "jobs", "environments": {"prod": {"base_url": "https://jobs.example.com"}},
       "endpoints": {"start": {"kind": "rest", "method": "POST", "path": "/jobs", "expect_status": [400, 202]}}}
      """#)
    try await MockProcess.with(["jobs", "--registry", registry]) { mock in
      let answer = try await LoopbackHTTP.request(port: try mock.port(), "POST", "/jobs")
      #expect(answer.status == 202, "\(answer.status) \(answer.text)")
    }
  }
}
