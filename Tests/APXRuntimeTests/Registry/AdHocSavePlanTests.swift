import APXCore
import APXTestSupport
import Foundation
import Testing

@testable import APXRuntime

/// `--save`'s plan is made without a command line: the text it would write, and what it cannot
/// keep as warnings for the front end to show.
@Suite("--save plans, apart from the command line")
struct AdHocSavePlanTests {
  static func call(_ options: EndpointOptions, headers: [HeaderField] = [], untilEvent: [String] = []) throws
    -> AdHocSave.Call
  {
    AdHocSave.Call(
      endpoint: Endpoint(name: "GET /events", options: options),
      url: try AdHocURL(parsing: "http://127.0.0.1:9/events"),
      fixedBaseURL: nil, headers: headers, untilEvent: untilEvent)
  }

  @Test func anSSECallKeepsItsUntilEventAndARESTCallSaysItCannot() throws {
    let dir = TestScratch.root.appendingPathComponent("apx-save-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let registry = RegistryFiles(directories: [dir])
    let sse = try AdHocSave("feed.watch").plan(
      try Self.call(.sse(HTTPRoute(path: "/events"), SSEOptions()), untilEvent: ["done"]), values: [], data: nil,
      registry: registry)
    #expect(sse.warnings.isEmpty)
    let saved = try RegistryLoader.load(Array(sse.text.utf8), file: sse.path)
    #expect(saved.endpoint(named: "watch")?.sse?.untilEvent == ["done"])
    #expect(sse.path == dir + "/feed.json")

    let rest = try AdHocSave("feed.get").plan(
      try Self.call(
        .rest(HTTPRoute(path: "/events")), headers: [HeaderField("Authorization", "Bearer s3cret")],
        untilEvent: ["done"]),
      values: [], data: nil, registry: registry)
    #expect(rest.warnings.count == 2)
    #expect(rest.warnings.contains { $0.contains("--until-event is not saved") })
    #expect(rest.warnings.contains { $0.contains("Authorization is not saved") })
    #expect(!rest.text.contains("s3cret"))
    // Nothing is written by planning.
    #expect(!FileManager.default.fileExists(atPath: dir))
  }

  @Test func aNameThatIsNotAPIDotEndpointIsAUsageError() {
    let error = #expect(throws: APXError.self) { _ = try AdHocSave("noDot") }
    #expect(error?.status == .usage)
  }
}
