import APXCore
import Testing

/// HTTPie/xh request items: the first `:`, `=` or `@` decides, the longest separator there wins.
@Suite struct RequestItemTests {
  @Test(arguments: [
    ("X-Trace:abc", RequestItem.header(name: "X-Trace", value: "abc")),
    ("X-Trace: a b ", .header(name: "X-Trace", value: "a b")),
    ("X-Gone:", .header(name: "X-Gone", value: "")),
    ("Auth:x=y", .header(name: "Auth", value: "x=y")),
    ("q==cat", .query(name: "q", value: "cat")),
    ("q===cat", .query(name: "q", value: "=cat")),
    ("q==", .query(name: "q", value: "")),
    ("url==http://x/?a=b", .query(name: "url", value: "http://x/?a=b")),
    ("name=Ann", .param(ParamArgument(name: "name", value: .text("Ann")))),
    ("url=http://x:1", .param(ParamArgument(name: "url", value: .text("http://x:1")))),
    ("n:=3", .param(ParamArgument(name: "n", value: .json(.number("3"))))),
    ("m:=@m.json", .param(ParamArgument(name: "m", value: .jsonFile(path: "m.json")))),
    ("t=@t.txt", .param(ParamArgument(name: "t", value: .file(path: "t.txt")))),
    ("id=@-.job_id", .param(ParamArgument(name: "id", value: .stdinPath(".job_id")))),
    ("csv@rows.csv", .filePart(name: "csv", path: "rows.csv")),
    ("a\\:b=c", .param(ParamArgument(name: "a:b", value: .text("c")))),
    ("a\\=b==c", .query(name: "a=b", value: "c")),
    ("mail\\@home==x", .query(name: "mail@home", value: "x")),
  ])
  func parses(_ text: String, _ expected: RequestItem) throws {
    #expect(try RequestItem(parsing: text) == expected)
  }

  @Test(arguments: ["plain", "=v", ":v", "==v", "@f", "f@", "Bad Name:v", "H:a\nb", "H:a\r\nb", "n:=[1,"])
  func malformedItemsAreUsageErrors(_ text: String) throws {
    let error = try #require(throws: APXError.self) { try RequestItem(parsing: text) }
    #expect(error.status == .usage)
  }

  @Test(arguments: [
    (":8080/p?q=1", "http://localhost:8080/p?q=1"), ("localhost:8080", "http://localhost:8080/"),
    ("example.com/x#frag", "http://example.com/x"), ("HTTPS://h/a{b}", "https://h/a%7Bb%7D"),
    ("http://[::1]:9/x", "http://[::1]:9/x"), ("http://h?x=1", "http://h/?x=1"),
  ])
  func urlsNormalise(_ text: String, _ expected: String) throws {
    #expect(try AdHocURL(parsing: text).text == expected)
  }

  @Test func theURLRuleNeverGuesses() {
    #expect(AdHocURL.isURL(":8080") && AdHocURL.isURL("h/x") && AdHocURL.isURL("http://h"))
    #expect(!AdHocURL.isURL("books.imports.create") && !AdHocURL.isURL("example.com"))
  }

  @Test func baseURLsCoverWholePathSegmentsOnly() throws {
    let url = try AdHocURL(parsing: "http://127.0.0.1:80/api/v2/x")
    #expect(BaseURLMatch.covers(baseURL: "http://127.0.0.1/api/v2", url: url))
    #expect(BaseURLMatch.covers(baseURL: "http://127.0.0.1:80/", url: url))
    #expect(!BaseURLMatch.covers(baseURL: "http://127.0.0.1/api/v", url: url))
    #expect(!BaseURLMatch.covers(baseURL: "https://127.0.0.1/api/v2", url: url))
    #expect(!BaseURLMatch.covers(baseURL: "http://127.0.0.1:81/api/v2", url: url))
  }
}
