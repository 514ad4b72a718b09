import APXCore
import Testing

/// What a call loads (`RegistryLoader.load(_:file:endpoint:)`): the API-wide keys and the called
/// endpoint, checked as fully as `apx validate` checks them; the other endpoints only by name.
@Suite struct RegistryPartialLoadTests {
  static let text = RegistryFixture.document(
    top: #""headers": {"X-Team": "a"}"#,
    endpoints: #"""
          "items.list": { "kind": "rest", "path": "/items", "params": { "q": { "type": "integer" } } },
          "items.broken": { "kind": "rest", "method": "FETCH", "path": "/items/{id}" },
          "items.watch": { "kind": "sse", "path": "/items/watch",
            "fallback": { "poll": "sample.items.status", "until": ".state", "equals": "done" } },
          "items.status": { "kind": "rest", "path": "/items/status" }
      """#)

  func partial(_ text: String, _ endpoint: String?) throws(APXErrors) -> APIDefinition {
    try RegistryLoader.load(Array(text.utf8), file: "sample.json", endpoint: endpoint)
  }

  @Test func decodesOnlyTheCalledEndpointAndNamesTheRest() throws {
    let api = try partial(Self.text, "items.list")
    #expect(api.endpoints.map(\.name) == ["items.list"])
    #expect(api.endpointNames == ["items.list", "items.broken", "items.watch", "items.status"])
    #expect(api.headers == [HeaderField("X-Team", "a")])
    #expect(api.environments.map(\.name) == ["demo", "prod"])
    let endpoint = try #require(api.endpoint(named: "items.list"))
    #expect(endpoint.param(named: "q")?.type == .integer)
  }

  @Test func theCalledEndpointDecodesAsInAFullLoad() throws {
    let text = RegistryFixture.document(
      endpoints: #"""
            "e": { "kind": "rest", "method": "post", "path": "/e/{id}", "idempotent": true, "timeout": 2.5,
              "params": { "id": { "in": "path" }, "tags": { "type": "array", "style": "pipeDelimited" },
                "doc": { "in": "body", "type": "json" } },
              "headers": { "X-A": "1" }, "expect_status": [201], "retry": { "max_attempts": 2 } }
        """#)
    let full = try #require(RegistryFixture.load(text)?.endpoint(named: "e"))
    let part = try #require(try partial(text, "e").endpoint(named: "e"))
    #expect(RegistryWriter.endpoint(part) == RegistryWriter.endpoint(full))
  }

  @Test func aBrokenOtherEndpointDoesNotStopACallButFailsValidation() throws {
    _ = try partial(Self.text, "items.list")
    let errors = RegistryFixture.errors(Self.text)
    #expect(errors.map(\.path) == [".endpoints[\"items.broken\"].method", ".endpoints[\"items.broken\"].path"])
  }

  @Test func callingTheBrokenEndpointReportsItsErrorsWithLocations() {
    let full = RegistryFixture.errors(Self.text)
    do {
      _ = try partial(Self.text, "items.broken")
      Issue.record("the broken endpoint loaded")
    } catch {
      #expect(error.errors.map(\.description) == full.map(\.description))
      #expect(error.errors.first?.location == RegistryFixture.position(of: "\"FETCH\"", in: Self.text))
    }
  }

  @Test func aFallbackBringsTheEndpointItPolls() throws {
    let api = try partial(Self.text, "items.watch")
    #expect(api.endpoints.map(\.name) == ["items.watch", "items.status"])
  }

  @Test func anUnknownEndpointLoadsNoneAndNamesThemAll() throws {
    let api = try partial(Self.text, "items.lst")
    #expect(api.endpoints.isEmpty)
    #expect(api.endpointNames.count == 4)
    #expect(try partial(Self.text, nil).endpoints.isEmpty)
  }

  @Test func apiWideProblemsStillFailACall() {
    let text = RegistryFixture.document(
      top: #""default_environment": "staging""#, endpoints: #""e": { "kind": "rest", "path": "/" }"#)
    #expect(throws: APXErrors.self) { try partial(text, "e") }
  }

  @Test func aSyntaxErrorAnywhereFailsACallWithItsLocation() {
    let text = Self.text.replacing(#""/items/status" }"#, with: #""/items/status" ,}"#)
    do {
      _ = try partial(text, "items.list")
      Issue.record("a file with a syntax error loaded")
    } catch {
      #expect(error.errors.count == 1)
      #expect(error.errors.first?.message.hasPrefix("invalid JSON") == true)
      #expect(error.errors.first?.location == RegistryFixture.errors(text).first?.location)
    }
  }

  @Test func aDuplicateEndpointNameFailsACall() {
    let text = RegistryFixture.document(
      endpoints: #""e": { "kind": "rest", "path": "/" }, "f": { "kind": "rest", "path": "/" }, "f": {}"#)
    #expect(throws: APXErrors.self) { try partial(text, "e") }
  }
}
