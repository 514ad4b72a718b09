import Testing

@testable import APXRuntime

/// `PlainHTTPOrigin.split`: the origin and request target a plain http:// request through a
/// proxy is sent with (`AbsoluteFormRelay`).
@Suite struct PlainHTTPOriginTests {
  @Test(arguments: [
    ("http://example.com/a/b?x=1&y=%20z", "example.com", "/a/b?x=1&y=%20z"),
    ("http://example.com", "example.com", "/"),
    ("http://example.com:80/p", "example.com", "/p"),
    ("http://127.0.0.1:8080?q", "127.0.0.1:8080", "/?q"),
    ("HTTP://Example.com:8081/%41", "Example.com:8081", "/%41"),
    ("http://[::1]:9000/v", "[::1]:9000", "/v"),
    ("http://example.com/p#fragment", "example.com", "/p"),
  ])
  func splitsAURL(url: String, authority: String, target: String) throws {
    let split = try #require(PlainHTTPOrigin.split(url))
    #expect(split.origin.authority == authority)
    #expect(split.target == target)
  }

  @Test(arguments: ["https://example.com/", "ws://example.com/", "http:///path", "not a url"])
  func refusesAnythingButPlainHTTPWithAHost(url: String) {
    #expect(PlainHTTPOrigin.split(url) == nil)
  }
}
