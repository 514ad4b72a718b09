import APXDemoServer
import APXTestSupport
import Foundation
import Testing

/// `apx call` for JSON-RPC endpoints (Endpoints/calc.json), run as a real process against the demo backend.
@Suite("apx call (JSON-RPC)")
struct JSONRPCTests {
  @Test func aResultPrintsAndAnErrorExits11WithCodeMessageAndData() async throws {
    try await withDemoServer { server in
      let ok = try await APXProcess.run([
        "call", "calc.subtract", "minuend:=42", "subtrahend:=23", "--base-url", server.httpBaseURL,
      ])
      #expect(ok.status == 0, "\(ok.stderr)")
      #expect(ok.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "19")
      let failed = try await APXProcess.run([
        "call", "calc.divide", "dividend:=1", "divisor:=0", "--base-url", server.httpBaseURL,
      ])
      #expect(failed.status == 11, "\(failed.stderr)")
      #expect(failed.stdout.isEmpty)
      #expect(failed.stderr.contains("1001"), "\(failed.stderr)")
      #expect(failed.stderr.contains("division by zero"), "\(failed.stderr)")
      #expect(failed.stderr.contains(#""divisor":0"#), "\(failed.stderr)")
    }
  }

  @Test func plusJoinsCallsIntoOneBatch() async throws {
    try await withDemoServer { server in
      let r = try await APXProcess.run([
        "call", "calc.add", "a:=1", "b:=2", "+", "calc.log", "message=hi", "+", "calc.constants",
        "--base-url", server.httpBaseURL, "-o", "ndjson",
      ])
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains(#"{"id":1,"result":3}"#), "\(r.stdout)")
      #expect(r.stdout.contains(#""alpha":9007199254740993,"price":1.10"#), "\(r.stdout)")
      let mixed = try await APXProcess.run([
        "call", "calc.add", "a:=1", "b:=2", "+", "books.capabilities.get", "--base-url", server.httpBaseURL,
      ])
      #expect(mixed.status == 2, "\(mixed.stderr)")
      #expect(mixed.stderr.contains("only JSON-RPC calls can be batched"), "\(mixed.stderr)")
      let dangling = try await APXProcess.run(["call", "calc.add", "a:=1", "b:=2", "+"])
      #expect(dangling.status == 2, "\(dangling.stderr)")
    }
  }

  @Test func describeShowsTheJSONRPCFields() async throws {
    let r = try await APXProcess.run(["describe", "calc.subtract"])
    #expect(r.status == 0, "\(r.stderr)")
    let compact = r.stdout.replacingOccurrences(of: " ", with: "")
    #expect(compact.contains(#""rpc_method":"subtract""#), "\(r.stdout)")
    #expect(compact.contains(#""params_by":"position""#), "\(r.stdout)")
  }

  @Test func aRecipeStepSendsABatch() async throws {
    let recipe = APXProcess.packageRoot.appendingPathComponent("Recipes/calc-batch.json").path
    let state = TestScratch.root.appendingPathComponent("apx-calc-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: state) }
    let r = try await APXProcess.run(["run", recipe, "--demo"], environment: ["APX_STATE_DIR": state])
    #expect(r.status == 0, "\(r.stderr)")
    let compact = r.stdout.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\n", with: "")
    #expect(compact.contains(#""difference":40"#), "\(r.stdout)")
  }
}
