import APXCore
import Testing

/// `QueryParameter.replacing` sets one query parameter once, whatever the URL carried.
@Suite struct QueryParameterTests {
  @Test func aParameterIsAddedOrReplacedNeverRepeated() {
    #expect(QueryParameter.replacing("api_key", with: "a b", in: "https://h/x") == "https://h/x?api_key=a%20b")
    #expect(QueryParameter.replacing("api_key", with: "k", in: "https://h/x?page=2") == "https://h/x?page=2&api_key=k")
    #expect(
      QueryParameter.replacing("api_key", with: "k", in: "/x?api_key=old&page=2&api%5Fkey=older&api_key")
        == "/x?page=2&api_key=k")
    #expect(QueryParameter.replacing("api_key", with: "k", in: "/x?api_keys=1#frag") == "/x?api_keys=1&api_key=k#frag")
    #expect(QueryParameter.replacing("api_key", with: "k", in: "/x?") == "/x?api_key=k")
  }
}
