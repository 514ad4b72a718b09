import APXCore
import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// An OAuth2 token a server echoes in a response body is masked in the recipe journal
/// and in `--events`, as echoed API keys and secret inputs are.
@Suite("Recipe runs mask fetched tokens")
struct RecipeTokenMaskTests {
  static let registry = """
    {
      "api": "echoauth",
      "environments": { "demo": { "base_url": "http://127.0.0.1:1" } },
      "auth": {
        "type": "oauth2_client_credentials", "token_url": "/oauth/token",
        "client_id": "demo-client", "client_secret": "demo-secret", "scopes": ["books:read"]
      },
      "endpoints": { "echo": { "kind": "rest", "method": "GET", "path": "/_demo/echo" } }
    }
    """

  static let recipe = """
    {
      "name": "echo-token",
      "steps": [ { "id": "echo", "call": "echoauth.echo" } ],
      "output": { "headers": "${steps.echo.body.headers}" }
    }
    """

  @Test func anEchoedAccessTokenIsMaskedInTheJournalAndEvents() async throws {
    let folder = TestScratch.root.appendingPathComponent("apx-token-mask-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder + "/Endpoints", withIntermediateDirectories: true)
    try Self.registry.write(toFile: folder + "/Endpoints/echoauth.json", atomically: true, encoding: .utf8)
    try Self.recipe.write(toFile: folder + "/echo-token.json", atomically: true, encoding: .utf8)
    let state = folder + "/state"
    try await withDemoServer { server in
      let r = try await APXProcess.run(
        [
          "run", folder + "/echo-token.json", "--events", "--registry", folder + "/Endpoints", "--base-url",
          server.httpBaseURL,
        ], environment: ["APX_STATE_DIR": state])
      #expect(r.status == 0, "\(r.stderr)")
      let stored = try JSONParser.parse(
        Array(try Data(contentsOf: URL(fileURLWithPath: state + "/tokens/echoauth@demo.json"))))
      let access = try #require(stored["access_token"]?.stringValue)
      let refresh = stored["refresh_token"]?.stringValue
      let runs = try FileManager.default.contentsOfDirectory(atPath: state + "/runs").filter { $0.hasSuffix(".jsonl") }
      let journal = try String(contentsOfFile: state + "/runs/" + (try #require(runs.first)), encoding: .utf8)
      #expect(r.stdout.contains("Bearer ***"), "the echoed header is there, masked: \(r.stdout)")
      #expect(journal.contains("Bearer ***"), "\(journal)")
      for secret in [access] + (refresh.map { [$0] } ?? []) {
        #expect(!r.stdout.contains(secret), "the token reached --events")
        #expect(!r.stderr.contains(secret), "the token reached stderr")
        #expect(!journal.contains(secret), "the token reached the journal")
      }
    }
  }
}
