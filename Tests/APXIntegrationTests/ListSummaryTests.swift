import APXTestSupport
import Foundation
import Testing

/// `apx list` without an API prints one line per API (a registry of many APIs would print
/// thousands of endpoints); `apx list API` prints the endpoints, names and targets whole.
@Suite struct ListSummaryTests {
  static func registry() throws -> String {
    let dir = try TestRegistry.make(
      """
      {"api": "shop", "title": "The shop API",
       "environments": {"dev": {"base_url": "http://127.0.0.1:9"}, "prod": {"base_url": "http://127.0.0.1:8"}},
       "default_environment": "prod",
       "endpoints": {
         "orders.list_by_customer_and_status": {"kind": "rest", "path": "/customers/{customer_id}/orders/by-status/{status}",
           "params": {"customer_id": {"in": "path", "required": true}, "status": {"in": "path", "required": true}}},
         "health": {"kind": "rest", "path": "/health", "description": "Up or not"}}}
      """)
    try #"{"api": "bare", "endpoints": {"ping": {"kind": "rest", "path": "/ping"}}}"#.write(
      toFile: dir + "/bare.json", atomically: true, encoding: .utf8)
    return dir
  }

  @Test func withoutAnAPIEachAPIIsOneLine() async throws {
    let r = try await APXProcess.run(["list", "--registry", try Self.registry(), "-o", "ndjson"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.split(separator: "\n").map(String.init).sorted() == [
        #"{"api":"bare","endpoints":1,"environments":[]}"#,
        #"{"api":"shop","endpoints":2,"environments":["prod","dev"],"description":"The shop API"}"#,
      ], "\(r.stdout)")
  }

  @Test func oneAPIsTableKeepsTargetsWholeAndLeavesNoNull() async throws {
    let r = try await APXProcess.run(["list", "shop", "--registry", try Self.registry(), "-o", "table"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("GET /customers/{customer_id}/orders/by-status/{status}"), "\(r.stdout)")
    #expect(r.stdout.contains("shop.orders.list_by_customer_and_status"), "\(r.stdout)")
    #expect(!r.stdout.contains("null"), "\(r.stdout)")
    #expect(r.stdout.contains("Up or not"), "\(r.stdout)")
  }
}
