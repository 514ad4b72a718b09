import Testing

@testable import APXCore

/// RFC 6265's rules for which cookies a request carries.
@Suite struct CookieJarTests {
  static let now = 1_800_000_000.0

  static func url(_ text: String) throws -> CookieURL { try #require(CookieURL(text)) }

  @Test func aHostOnlyCookieGoesBackToItsHostAndPathOnly() throws {
    var jar = CookieJar()
    jar.store(["sid=abc; Path=/api; HttpOnly"], from: try Self.url("http://example.com/login"), now: Self.now)
    #expect(jar.header(for: try Self.url("http://example.com/api/users"), now: Self.now) == "sid=abc")
    #expect(jar.header(for: try Self.url("http://example.com/apiary"), now: Self.now) == nil)
    #expect(jar.header(for: try Self.url("http://example.com/"), now: Self.now) == nil)
    #expect(jar.header(for: try Self.url("http://www.example.com/api"), now: Self.now) == nil)
  }

  @Test func aDomainCookieGoesToSubdomainsAndAForeignDomainIsRefused() throws {
    var jar = CookieJar()
    let login = try Self.url("https://auth.example.com/x/login")
    jar.store(["a=1; Domain=.example.com; Path=/", "evil=1; Domain=attacker.org"], from: login, now: Self.now)
    #expect(jar.header(for: try Self.url("https://api.example.com/v1"), now: Self.now) == "a=1")
    #expect(jar.header(for: try Self.url("https://attacker.org/"), now: Self.now) == nil)
    // The default path is the login URL's directory; the longer path goes first.
    jar.store(["b=2"], from: login, now: Self.now)
    #expect(jar.header(for: try Self.url("https://auth.example.com/x/other"), now: Self.now) == "b=2; a=1")
    #expect(jar.header(for: try Self.url("https://auth.example.com/y"), now: Self.now) == "a=1")
  }

  /// A Domain that is a public suffix would send the cookie to every site under it: refused,
  /// saying which rules judged it; the host's own name (`localhost`) makes a host-only cookie.
  @Test(arguments: [
    ("https://shop.example.com/", "com"), ("https://a.b.co.uk/", ".co.uk"), ("http://app.test/", "test"),
    ("https://me.github.io/", "github.io"),
  ])
  func aPublicSuffixDomainIsRefused(from: String, domain: String) throws {
    var jar = CookieJar()
    let refused = jar.store(["all=1; Domain=\(domain); Path=/"], from: try Self.url(from), now: Self.now)
    #expect(jar.cookies.isEmpty)
    #expect(refused.count == 1)
    #expect(refused.first?.contains("is a public suffix (by apx's built-in rules") == true, "\(refused)")
  }

  @Test func aDomainThatIsTheHostItselfMakesAHostOnlyCookie() throws {
    var jar = CookieJar()
    let refused = jar.store(["sid=1; Domain=localhost"], from: try Self.url("http://localhost:8080/"), now: Self.now)
    #expect(refused.isEmpty)
    #expect(jar.cookies.first?.hostOnly == true)
    #expect(jar.header(for: try Self.url("http://localhost:8080/x"), now: Self.now) == "sid=1")
  }

  /// The list's own grammar: rules, `*.` wildcards, `!` exceptions, comments, the default `*`.
  @Test func theListsWildcardsAndExceptions() {
    let list = PublicSuffixList(text: "// comment\nuk\nco.uk\n*.ck\n!www.ck\nblogspot.com  trailing\n", source: "t")
    #expect(list.isPublicSuffix("co.uk") && list.isPublicSuffix("uk"))
    #expect(!list.isPublicSuffix("example.co.uk"))
    #expect(list.isPublicSuffix("anything.ck") && !list.isPublicSuffix("www.ck"))
    #expect(list.isPublicSuffix("blogspot.com") && list.isPublicSuffix("com"))
    #expect(!list.isPublicSuffix("example.com") && list.isPublicSuffix("test"))
    var jar = CookieJar()
    let refused = jar.store(
      ["a=1; Domain=anything.ck", "b=2; Domain=www.ck"], from: try! Self.url("https://www.anything.ck/"), now: Self.now,
      suffixes: list)
    #expect(refused.count == 1 && jar.cookies.isEmpty)
  }

  @Test func secureCookiesTravelOnlyOverHTTPSAndLongerPathsComeFirst() throws {
    var jar = CookieJar()
    let site = try Self.url("https://example.com/")
    jar.store(["s=1; Secure; Path=/", "deep=2; Path=/a/b"], from: site, now: Self.now)
    #expect(jar.header(for: try Self.url("http://example.com/a/b/c"), now: Self.now) == "deep=2")
    #expect(jar.header(for: try Self.url("https://example.com/a/b/c"), now: Self.now) == "deep=2; s=1")
    // A Secure cookie set over plain http is refused.
    jar.store(["plain=1; Secure"], from: try Self.url("http://example.com/"), now: Self.now)
    #expect(jar.cookies.map(\.name).contains("plain") == false)
  }

  @Test func expiryMaxAgeAndDeletion() throws {
    var jar = CookieJar()
    let site = try Self.url("http://example.com/")
    jar.store(
      [
        "short=1; Max-Age=10", "dated=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
        "kept=3; Max-Age=10; Expires=Wed, 21 Oct 2015 07:28:00 GMT",
      ],
      from: site, now: Self.now)
    #expect(jar.header(for: site, now: Self.now) == "short=1; kept=3", "Max-Age wins over Expires")
    #expect(jar.header(for: site, now: Self.now + 11) == nil)
    jar.store(["kept=gone; Max-Age=0"], from: site, now: Self.now)
    #expect(jar.header(for: site, now: Self.now) == "short=1")
    // The same name, domain and path replaces the value.
    jar.store(["short=new; Max-Age=10"], from: site, now: Self.now)
    #expect(jar.header(for: site, now: Self.now) == "short=new")
  }

  @Test func unusableHeadersAreIgnored() throws {
    var jar = CookieJar()
    jar.store(["novalue", "=x", "", "a=1; Domain=other.com"], from: try Self.url("http://example.com/"), now: Self.now)
    #expect(jar.cookies.isEmpty)
    #expect(CookieURL("ftp://example.com/") == nil)
    #expect(CookieURL("http://[::1]:8080/p?q")?.host == "::1")
    #expect(CookieURL("http://127.0.0.1:8080")?.path == "/")
  }

  @Test func theSessionFileRoundTrips() throws {
    var jar = CookieJar()
    jar.store(
      ["a=1; Max-Age=100; Path=/p", "b=2; Domain=example.com; Secure"], from: try Self.url("https://example.com/"),
      now: Self.now)
    let decoded = try CookieJarJSON.decode(JSONParser.parse(Array(CookieJarJSON.encode(jar).compactJSON.utf8)))
    #expect(decoded == jar)
    #expect(throws: CookieJarJSON.Problem.self) { try CookieJarJSON.decode(.object([])) }
  }
}
