import APXCore
import Testing

/// The registry's `pagination` block: each style loads, and mistakes get clear errors.
@Suite struct PaginationRegistryTests {
  static func document(_ endpoint: String) -> String {
    """
    {"api": "a", "environments": {"demo": {"base_url": "http://x"}},
     "endpoints": {"e": \(endpoint)}}
    """
  }

  @Test func eachStyleLoads() throws {
    let cursor = Self.document(
      #"{"kind": "rest", "path": "/e", "params": {"c": {"in": "query"}}, "pagination": {"style": "cursor", "items": ".items", "next_cursor": ".next", "cursor_param": "c", "max_pages": 7}}"#
    )
    let api = try #require(RegistryFixture.load(cursor))
    let pagination = try #require(api.endpoints.first?.pagination)
    #expect(pagination.style == .cursor(next: try JSONPath(parsing: ".next"), param: "c"))
    #expect(pagination.items == (try JSONPath(parsing: ".items")))
    #expect(pagination.maxPages == 7)

    let page = Self.document(
      #"{"kind": "rest", "path": "/e", "params": {"p": {"in": "query", "type": "integer"}}, "pagination": {"style": "page", "page_param": "p", "start": 0}}"#
    )
    let paged = try #require(RegistryFixture.load(page)?.endpoints.first?.pagination)
    #expect(paged.style == .page(param: "p", start: 0, hasNext: nil))
    #expect(paged.maxPages == Pagination.defaultMaxPages)
  }

  @Test func theCursorParameterMustBeDeclared() throws {
    let text = Self.document(
      #"{"kind": "rest", "path": "/e", "params": {"cursor": {"in": "query"}}, "pagination": {"style": "cursor", "next_cursor": ".n", "cursor_param": "cursr"}}"#
    )
    let error = try #require(RegistryFixture.error(text))
    #expect(error.message == #""cursor_param" names "cursr", which is not a parameter of this endpoint"#)
    #expect(error.hint?.contains("cursor") == true)
    #expect(error.path == ".endpoints.e.pagination.cursor_param")
  }

  @Test func mistakesAreNamed() throws {
    let cases: [(String, String)] = [
      (#"{"kind": "rest", "path": "/e", "pagination": {"style": "offset"}}"#, "unknown pagination style \"offset\""),
      (
        #"{"kind": "rest", "path": "/e", "pagination": {"style": "link", "page_param": "p"}}"#,
        "\"page_param\" applies only to style \"page\", and this one is \"link\""
      ),
      (
        #"{"kind": "rest", "path": "/e", "pagination": {"style": "link", "items": ".data[]"}}"#,
        "\"items\" must name one value, and .data[] iterates with []"
      ),
      (
        #"{"kind": "sse", "path": "/e", "pagination": {"style": "link"}}"#,
        "\"pagination\" applies only to kinds \"rest\" and \"grpc\""
      ),
      (
        #"{"kind": "grpc", "service": "a.S", "method": "L", "schema": {"protoset": "a.protoset"}, "pagination": {"style": "link"}}"#,
        "a gRPC answer has no Link header, so style \"link\" cannot apply"
      ),
      (
        #"{"kind": "rest", "path": "/e/{p}", "params": {"p": {"in": "path"}}, "pagination": {"style": "page", "page_param": "p"}}"#,
        "\"page_param\" names \"p\", a path parameter"
      ),
    ]
    for (endpoint, message) in cases {
      let error = try #require(RegistryFixture.error(Self.document(endpoint)))
      #expect(error.message == message)
      #expect(error.status == .invalidDefinition)
    }
  }
}
