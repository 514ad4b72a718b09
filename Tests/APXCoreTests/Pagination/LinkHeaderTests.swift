import APXCore
import Testing

/// `Link: rel="next"` targets (RFC 8288), as servers write them.
@Suite struct LinkHeaderTests {
  @Test func findsNextAmongSeveralLinks() {
    let value =
      #"<https://api.x/items?page=1>; rel="first", <https://api.x/items?page=3>; rel="next", <https://api.x/items?page=9>; rel="last""#
    #expect(LinkHeader.next(in: [value]) == "https://api.x/items?page=3")
  }

  @Test func acceptsUnquotedSeveralAndUpperCaseRelations() {
    #expect(LinkHeader.next(in: ["</p2>; rel=next"]) == "/p2")
    #expect(LinkHeader.next(in: [#"</p2>; title="a, b; c"; rel="prefetch NEXT""#]) == "/p2")
    #expect(LinkHeader.next(in: [#"</last>; rel="last""#, #"</p2>; rel="next""#]) == "/p2")
  }

  @Test func noNextIsNil() {
    #expect(LinkHeader.next(in: []) == nil)
    #expect(LinkHeader.next(in: [#"</p1>; rel="prev""#]) == nil)
    #expect(LinkHeader.next(in: ["<unterminated; rel=next"]) == nil)
    #expect(LinkHeader.next(in: [#"</p2>; rel="nextish""#]) == nil)
  }
}
