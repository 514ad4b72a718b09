import APXCore
import Testing

@testable import APXMock

/// `apx mock`'s answering in memory: a registry API in, `MockRequest`s to `MockAPI.handle`,
/// `MockAnswer`s out; no sockets and no process. (The served protocols and the command line are
/// held to their behaviour by the integration tests, against real clients.)
@Suite("Mock answers in memory")
struct MockAPITests {
  static let registry = #"""
    {"api": "shop", "environments": {"dev": {"base_url": "http://127.0.0.1:1"}}, "endpoints": {
      "items.get": {"kind": "rest", "method": "GET", "path": "/items/{id}",
        "params": {"id": {"in": "path", "required": true}},
        "responses": {"200": {"content_type": "application/json",
          "examples": {"lamp": {"id": "it_1", "name": "lamp"}}}}},
      "items.list": {"kind": "rest", "method": "GET", "path": "/items",
        "responses": {"200": {"content_type": "application/json", "examples": {"none": []}}}},
      "items.create": {"kind": "rest", "method": "POST", "path": "/items", "body": "json",
        "body_schema": {"type": "object", "required": ["name"],
          "properties": {"name": {"type": "string", "minLength": 1}}},
        "params": {"name": {"in": "body", "required": true}},
        "responses": {"201": {"content_type": "application/json",
          "schema": {"type": "object", "required": ["id", "name"],
            "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}}}}
    }}
    """#

  static func mock(_ options: MockOptions = MockOptions()) throws -> MockAPI {
    let api = try RegistryLoader.load(Array(registry.utf8), file: "shop.json")
    return MockAPI(api: api, options: options, report: { _ in })
  }

  static func request(
    _ method: String, _ path: String, headers: [(String, String)] = [], json: String? = nil
  ) -> MockRequest {
    var fields = headers.map { (name: $0.0.lowercased(), value: $0.1) }
    if json != nil { fields.append((name: "content-type", value: "application/json")) }
    return MockRequest(method: method, path: path, query: [], headers: fields, body: Array((json ?? "").utf8))
  }

  static func body(_ answer: MockAnswer) throws -> JSONValue {
    guard case .bytes(let bytes) = answer.body else {
      Issue.record("the answer is an event stream")
      return .null
    }
    return try JSONParser.parse(bytes)
  }

  @Test func aDeclaredExampleIsTheAnswer() async throws {
    let answer = await try Self.mock().handle(Self.request("GET", "/items/it_1"))
    #expect(answer.status == 200)
    #expect(try Self.body(answer)["name"] == .string("lamp"))
    #expect(answer.headers.contains { $0.name == "content-type" && $0.value.hasPrefix("application/json") })
  }

  @Test func aPathNoEndpointServesIs404AndAWrongMethod405() async throws {
    let mock = try Self.mock()
    let missing = await mock.handle(Self.request("GET", "/nothing"))
    #expect(missing.status == 404)
    #expect(try Self.body(missing)["title"] == .string("Not Found"))
    let wrong = await mock.handle(Self.request("DELETE", "/items"))
    #expect(wrong.status == 405)
    #expect(wrong.headers.first { $0.name == "allow" }?.value.contains("GET") == true)
  }

  @Test func aBodyItsSchemaRefusesIsAProblemNamingTheField() async throws {
    let mock = try Self.mock()
    let refused = await mock.handle(Self.request("POST", "/items", json: #"{"name": ""}"#))
    #expect((400...422).contains(refused.status), "\(refused.status)")
    #expect(refused.headers.contains { $0.value == "application/problem+json" })
    #expect(try Self.body(refused)["field"]?.stringValue?.contains("name") == true)
    let accepted = await mock.handle(Self.request("POST", "/items", json: #"{"name": "desk"}"#))
    #expect(accepted.status == 201)
    // Generated from the answer's schema: what it requires is there, with the declared types.
    let created = try Self.body(accepted)
    #expect(created["id"]?.stringValue != nil)
    #expect(created["name"]?.stringValue != nil)
  }

  @Test func aFaultFromTheHeaderFailsTheRequestWithRetryAfter() async throws {
    let mock = try Self.mock()
    let failed = await mock.handle(Self.request("GET", "/items/it_1", headers: [("X-Apx-Mock-Fault", "fail=503")]))
    #expect(failed.status == 503)
    #expect(failed.headers.first { $0.name == "retry-after" }?.value == "1")
    let bad = await mock.handle(Self.request("GET", "/items/it_1", headers: [("X-Apx-Mock-Fault", "fail=lots")]))
    #expect(bad.status == 400)
    var always = MockFaults()
    always.failRate = 1
    always.failStatus = 502
    let flaky = try Self.mock(MockOptions(faults: always))
    #expect(await flaky.handle(Self.request("GET", "/items/it_1")).status == 502)
  }

  @Test func aStatefulMockReadsBackWhatWasCreated() async throws {
    let mock = try Self.mock(MockOptions(stateful: true))
    let created = await mock.handle(Self.request("POST", "/items", json: #"{"name": "desk"}"#))
    #expect(created.status == 201)
    // The store numbers what it creates, and keeps the rest of the body as it was sent.
    let id = try #require(try Self.body(created)["id"].map { $0.stringValue ?? $0.compactJSON })
    let read = await mock.handle(Self.request("GET", "/items/\(id)"))
    #expect(read.status == 200)
    #expect(try Self.body(read)["name"] == .string("desk"))
  }

  @Test func theRequestLogListsWhatCameAndResetForgetsIt() async throws {
    let mock = try Self.mock()
    _ = await mock.handle(Self.request("GET", "/items/it_1"))
    _ = await mock.handle(Self.request("GET", "/nothing"))
    let log = try Self.body(await mock.handle(Self.request("GET", "/__apx/requests")))
    #expect(log.arrayValue?.count == 2)
    #expect(log.arrayValue?.first?["endpoint"] == .string("items.get"))
    #expect(await mock.handle(Self.request("POST", "/__apx/reset")).status == 204)
    let empty = try Self.body(await mock.handle(Self.request("GET", "/__apx/requests")))
    #expect(empty.arrayValue?.isEmpty == true)
  }
}
