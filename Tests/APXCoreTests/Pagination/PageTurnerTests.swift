import APXCore
import Testing

/// Where a paginated call goes next, and how hostile servers are stopped.
@Suite struct PageTurnerTests {
  static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test func cursorsAreFollowedUntilNull() throws {
    var turner = PageTurner(
      Pagination(
        style: .cursor(next: try JSONPath(parsing: ".next"), param: "c"), items: try JSONPath(parsing: ".items")))
    let first = try Self.json(#"{"items": [1, 2], "next": "abc"}"#)
    #expect(try turner.items(in: first).count == 2)
    #expect(try turner.next(after: first, itemCount: 2, link: nil) == .parameter(name: "c", value: .string("abc")))
    #expect(turner.page == 2)
    #expect(try turner.next(after: try Self.json(#"{"items": [3], "next": null}"#), itemCount: 1, link: nil) == .end)
  }

  @Test func aRepeatedCursorIsALoop() throws {
    var turner = PageTurner(Pagination(style: .cursor(next: try JSONPath(parsing: ".next"), param: "c")))
    let body = try Self.json(#"{"next": 5}"#)
    _ = try turner.next(after: body, itemCount: 1, link: nil)
    #expect(throws: APXError.self) { try turner.next(after: body, itemCount: 1, link: nil) }
    do {
      _ = try turner.next(after: body, itemCount: 1, link: nil)
    } catch {
      #expect(error.message.contains("loop"))
      #expect(error.status == .expectation)
    }
  }

  @Test func pageNumbersStopOnHasNextOrAnEmptyPage() throws {
    var turner = PageTurner(
      Pagination(style: .page(param: "p", start: 1, hasNext: try JSONPath(parsing: ".more"))), firstPage: 4)
    #expect(
      try turner.next(after: try Self.json(#"{"more": true}"#), itemCount: 3, link: nil)
        == .parameter(name: "p", value: .number("5")))
    #expect(try turner.next(after: try Self.json(#"{"more": false}"#), itemCount: 3, link: nil) == .end)
    var plain = PageTurner(Pagination(style: .page(param: "p", start: 0, hasNext: nil)))
    #expect(try plain.next(after: .array([]), itemCount: 1, link: nil) == .parameter(name: "p", value: .number("1")))
    #expect(try plain.next(after: .array([]), itemCount: 0, link: nil) == .end)
  }

  @Test func thePageCapStopsARunawayServer() throws {
    var turner = PageTurner(Pagination(style: .link, maxPages: 5), maxPages: 2)
    #expect(try turner.next(after: .null, itemCount: 1, link: "http://x/2") == .link("http://x/2"))
    #expect(throws: APXError.self) { try turner.next(after: .null, itemCount: 1, link: "http://x/3") }
  }

  @Test func itemsMustBeAnArray() throws {
    let turner = PageTurner(Pagination(style: .link))
    #expect(throws: APXError.self) { try turner.items(in: try Self.json(#"{"a": 1}"#)) }
    let nested = PageTurner(Pagination(style: .link, items: try JSONPath(parsing: ".data")))
    #expect(try nested.items(in: try Self.json(#"{"data": null}"#)).isEmpty)
    #expect(throws: APXError.self) { try nested.items(in: try Self.json(#"{"data": "x"}"#)) }
  }
}
