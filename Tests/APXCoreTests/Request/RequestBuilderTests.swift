import APXCore
import Testing

/// RequestBuilder: bound parameters -> HTTPRequestPlan (URL, headers, body).
@Suite struct RequestBuilderTests {
  let f: RequestFixture

  init() throws {
    f = try RequestFixture(
      endpoints: """
        "imports.status": {"kind": "rest", "path": "/api/v2/imports/{job_id}",
          "params": {"job_id": {"in": "path"}}},
        "items.get": {"kind": "rest", "path": "/shelves/{shelf}/items/{id}",
          "params": {"shelf": {"in": "path"}, "id": {"in": "path", "type": "integer"}}},
        "search": {"kind": "rest", "path": "/search",
          "params": {"q": {"required": true}, "tags": {"type": "array", "name": "tag"},
                     "page": {"type": "integer", "default": 1}, "mode": {"enum": ["fast", "full"]},
                     "size": {"type": "integer", "enum": [10, 20]},
                     "X-Request-Id": {"in": "header"}, "accept": {"in": "header", "name": "Accept"},
                     "token": {"in": "query", "secret": true}}},
        "books.create": {"kind": "rest", "method": "POST", "path": "/books",
          "headers": {"X-Client": "books-endpoint"},
          "params": {"title": {"in": "body", "required": true}, "count": {"in": "body", "type": "integer"},
                     "price": {"in": "body", "type": "number"}, "signed": {"in": "body", "type": "boolean"},
                     "meta": {"in": "body", "type": "json"}, "isbn": {"in": "body", "name": "ISBN"}}},
        "form.send": {"kind": "rest", "method": "POST", "path": "/form", "body": "form",
          "params": {"a": {"in": "form"}, "b": {"in": "form", "type": "integer"}, "c": {"in": "body"}}},
        "upload": {"kind": "rest", "method": "POST", "path": "/upload",
          "params": {"note": {"in": "multipart"}, "n": {"in": "multipart", "type": "integer"},
                     "doc": {"in": "multipart", "type": "file", "content_type": "text/csv"},
                     "blob": {"in": "multipart", "type": "file"}}},
        "imports.create": {"kind": "rest", "method": "POST", "path": "/api/v2/imports",
          "params": {"csv": {"in": "body", "type": "file", "content_type": "text/csv", "required": true}}},
        "raw.put": {"kind": "rest", "method": "PUT", "path": "/raw", "params": {"f": {"in": "body", "type": "file"}}},
        "ping": {"kind": "rest", "path": "/ping"}
        """)
  }

  // MARK: URL

  @Test(arguments: [
    ("42", "/api/v2/imports/42"),
    ("a b", "/api/v2/imports/a%20b"),
    ("a/b", "/api/v2/imports/a%2Fb"),
    ("../admin", "/api/v2/imports/..%2Fadmin"),
    ("café", "/api/v2/imports/caf%C3%A9"),
    ("日本", "/api/v2/imports/%E6%97%A5%E6%9C%AC"),
    ("🙂", "/api/v2/imports/%F0%9F%99%82"),
    ("a?b#c%d", "/api/v2/imports/a%3Fb%23c%25d"),
    ("A-z_0.9~", "/api/v2/imports/A-z_0.9~"),
  ])
  func pathParamsArePercentEncoded(_ value: String, _ path: String) throws {
    let plan = try f.build("imports.status", [("job_id", bindText(value))])
    #expect(plan.url == "http://127.0.0.1:8080" + path)
    #expect(plan.method == "GET")
  }

  @Test func severalPathParamsAndTheirTypes() throws {
    let plan = try f.build("items.get", [("id", bindText("7")), ("shelf", bindText("sci fi"))])
    #expect(plan.url == "http://127.0.0.1:8080/shelves/sci%20fi/items/7")
    #expect(throws: APXError.self) { try f.build("items.get", [("id", bindText("seven")), ("shelf", bindText("x"))]) }
    let e = f.error("items.get", [("id", try bindJSON("[1,2]")), ("shelf", bindText("x"))])
    #expect(e?.message == "id must be a whole number, got [1,2]")
  }

  @Test(arguments: [
    ("http://127.0.0.1:8080", "http://127.0.0.1:8080/ping"),
    ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/ping"),
    ("https://api.example.com/v2", "https://api.example.com/v2/ping"),
    ("https://api.example.com/v2/", "https://api.example.com/v2/ping"),
  ])
  func baseURLPrefixes(_ base: String, _ url: String) throws {
    #expect(try f.build("ping", baseURL: base).url == url)
  }

  @Test func queryArraysAreRepeated() throws {
    let repeated = try f.build("search", [("q", bindText("x")), ("tags", bindText("a")), ("tags", bindText("b"))])
    #expect(repeated.url == "http://127.0.0.1:8080/search?q=x&tag=a&tag=b&page=1")
    let fromJSON = try f.build("search", [("q", bindText("x")), ("tags", try bindJSON(#"["a","b c"]"#))])
    #expect(fromJSON.url == "http://127.0.0.1:8080/search?q=x&tag=a&tag=b%20c&page=1")
    let fromCommas = try f.build("search", [("q", bindText("x")), ("tags", bindText("a,b,"))])
    #expect(fromCommas.url == "http://127.0.0.1:8080/search?q=x&tag=a&tag=b&tag=&page=1")
  }

  @Test func queryValuesAreEncodedAndDefaultsApplied() throws {
    let plan = try f.build("search", [("q", bindText("a&b=c d+é")), ("page", bindText("3"))])
    #expect(plan.url == "http://127.0.0.1:8080/search?q=a%26b%3Dc%20d%2B%C3%A9&page=3")
    let objects = f.error("search", [("q", bindText("x")), ("tags", try bindJSON(#"[{"a":1}]"#))])
    #expect(objects?.message == "query parameter tags must hold plain values, got object")
    let wrongType = f.error("search", [("q", try bindJSON(#"{"a":1}"#))])
    #expect(wrongType?.message == "q must be a string, got {\"a\":1}")
  }

  @Test func headerParams() throws {
    let plan = try f.build(
      "search", [("q", bindText("x")), ("X-Request-Id", bindText("r-1")), ("accept", bindText("text/plain"))])
    // The header param replaces the API's Accept (case-insensitively) and keeps its wire name.
    #expect(
      plan.headers == [
        HeaderField("X-Client", "apx"), HeaderField("X-Request-Id", "r-1"), HeaderField("Accept", "text/plain"),
      ])
    #expect(plan.header("accept") == "text/plain")
    #expect(plan.body == .none)
    #expect(!plan.url.contains("Request"))
  }

  @Test func endpointHeadersOverrideAPIHeaders() throws {
    let plan = try f.build("books.create", [("title", bindText("Dune"))])
    #expect(plan.header("X-Client") == "books-endpoint")
    #expect(plan.headers.filter { $0.name.lowercased() == "x-client" }.count == 1)
  }

  @Test func secretsAreListed() throws {
    let plan = try f.build("search", [("q", bindText("x")), ("token", bindText("s3cr3t"))])
    #expect(plan.secrets == ["s3cr3t"])
    #expect(try f.build("search", [("q", bindText("x"))]).secrets.isEmpty)
  }

  // MARK: bodies

  @Test func jsonBodyCoercesTypes() throws {
    let plan = try f.build(
      "books.create",
      [
        ("title", bindText("Dune")), ("count", bindText("3")), ("price", bindText("9.90")), ("signed", bindText("yes")),
        ("meta", bindText(#"{"a":[1,2]}"#)), ("isbn", bindText("0441013597")),
      ])
    #expect(plan.method == "POST")
    #expect(
      planBodyText(plan)
        == #"{"title":"Dune","count":3,"price":9.90,"signed":true,"meta":{"a":[1,2]},"ISBN":"0441013597"}"#)
    #expect(plan.body.contentType == "application/json")
    #expect(plan.header("Content-Type") == "application/json")
  }

  @Test func jsonBodyKeepsNumberTextAndJSONValues() throws {
    let plan = try f.build(
      "books.create",
      [
        ("title", bindText("x")), ("count", try bindJSON("9007199254740993")), ("signed", try bindJSON("false")),
        ("meta", bindText("not json")), ("price", bindText("-1.5e3")),
      ])
    #expect(
      planBodyText(plan) == #"{"title":"x","count":9007199254740993,"price":-1.5e3,"signed":false,"meta":"not json"}"#)
  }

  @Test(arguments: [("007", "7"), ("-007", "-7"), ("0", "0"), ("000", "0"), ("-0", "-0"), ("120", "120")])
  func integersBecomeValidJSONNumbers(_ input: String, _ number: String) throws {
    let plan = try f.build("books.create", [("title", bindText("x")), ("count", bindText(input))])
    let body = try #require(planBodyText(plan))
    #expect(body == #"{"title":"x","count":\#(number)}"#)
    #expect((try? JSONParser.parse(body)) != nil)
  }

  @Test(arguments: [
    ("count", "abc", "count must be a whole number, got \"abc\""),
    ("count", "1.5", "count must be a whole number, got \"1.5\""),
    ("count", "-", "count must be a whole number, got \"-\""),
    ("price", "1e", "price must be a number, got \"1e\""),
    ("price", "NaN", "price must be a number, got \"NaN\""),
    ("signed", "maybe", "signed must be true or false, got \"maybe\""),
  ])
  func typeMismatchesAreUsageErrors(_ name: String, _ value: String, _ message: String) {
    let e = f.error("books.create", [("title", bindText("x")), (name, bindText(value))])
    #expect(e?.message == message)
    #expect(e?.status == .usage)
  }

  @Test func booleanSpellings() throws {
    for (word, value) in [
      ("true", "true"), ("on", "true"), ("1", "true"), ("FALSE", "false"), ("no", "false"), ("off", "false"),
    ] {
      let plan = try f.build("books.create", [("title", bindText("x")), ("signed", bindText(word))])
      #expect(planBodyText(plan) == #"{"title":"x","signed":\#(value)}"#)
    }
  }

  @Test func formBody() throws {
    let plan = try f.build("form.send", [("a", bindText("x y&z")), ("b", bindText("2")), ("c", bindText("é"))])
    #expect(planBodyText(plan) == "a=x%20y%26z&b=2&c=%C3%A9")
    #expect(plan.body.contentType == "application/x-www-form-urlencoded")
    #expect(plan.header("content-type") == "application/x-www-form-urlencoded")
    #expect(f.error("form.send", [("b", bindText("two"))])?.message == "b must be a whole number, got \"two\"")
  }

  @Test func multipartBody() throws {
    let plan = try f.build(
      "upload",
      [
        ("doc", .file(path: "/data/in/books.csv")), ("note", bindText("first \"try\"")), ("n", bindText("5")),
        ("blob", .file(path: "raw.bin")),
      ])
    #expect(
      plan.body
        == .multipart(
          [
            .field(name: "note", value: "first \"try\""), .field(name: "n", value: "5"),
            .file(name: "doc", path: "/data/in/books.csv", filename: "books.csv", contentType: "text/csv"),
            .file(name: "blob", path: "raw.bin", filename: "raw.bin", contentType: "application/octet-stream"),
          ], boundary: "BOUNDARY"))
    #expect(plan.header("Content-Type") == "multipart/form-data; boundary=BOUNDARY")
    let note = MultipartPart.field(name: "note", value: "x")
    #expect(note.headerBlock == "Content-Disposition: form-data; name=\"note\"\r\n\r\n")
    let file = MultipartPart.file(name: "d\"oc", path: "/p", filename: "a\r\nb.csv", contentType: "text/csv")
    #expect(
      file.headerBlock
        == "Content-Disposition: form-data; name=\"d%22oc\"; filename=\"a%0D%0Ab.csv\"\r\nContent-Type: text/csv\r\n\r\n"
    )
  }

  @Test func rawFileBody() throws {
    let plan = try f.build("imports.create", [("csv", .file(path: "books.csv"))])
    #expect(plan.body == .file(path: "books.csv", contentType: "text/csv"))
    #expect(plan.header("Content-Type") == "text/csv")
    let put = try f.build("raw.put", [("f", .file(path: "/tmp/x"))])
    #expect(put.body == .file(path: "/tmp/x", contentType: "application/octet-stream"))
    #expect(put.method == "PUT")
  }

  @Test func filesOnlyWhereTheyFit() {
    let e = f.error("search", [("q", .file(path: "q.txt"))])
    #expect(e?.message == "q is a query parameter and cannot take a file")
    #expect(e?.hint == "pass its value as q=VALUE")
  }

  @Test func dataOverridesParamBodies() throws {
    let bytes = Array(#"{"title":"raw"}"#.utf8)
    // -d satisfies the required body param and replaces the params-built body.
    let plan = try f.build("books.create", [("count", bindText("2"))], data: .json(bytes))
    #expect(plan.body == .bytes(bytes, contentType: "application/json"))
    #expect(plan.headers.filter { $0.name == "Content-Type" }.count == 1)
    let fromFile = try f.build("imports.create", data: .file(path: "big.json"))
    #expect(fromFile.body == .file(path: "big.json", contentType: "application/json"))
    let fromStdin = try f.build("imports.create", data: .stdin, headers: [HeaderField("Content-Type", "text/csv")])
    #expect(fromStdin.body == .stdin(contentType: "application/json"))
    #expect(fromStdin.header("Content-Type") == "text/csv")  // -H wins on the wire
  }

  @Test func dataDoesNotExcuseMissingPathParams() {
    let e = f.error("imports.status", data: .json(Array("{}".utf8)))
    #expect(e?.message == "missing required parameter \"job_id\" for books.imports.status")
  }

  // MARK: -H

  @Test func commandLineHeadersOverrideAndRemove() throws {
    let plan = try f.build(
      "books.create", [("title", bindText("x"))],
      headers: [HeaderField("accept", "text/csv"), HeaderField("X-Client", ""), HeaderField("X-Trace", "t1")])
    #expect(plan.header("Accept") == "text/csv")
    #expect(plan.header("X-Client") == nil)  // `-H 'X-Client:'` removes it, as in curl
    #expect(plan.headers.last == HeaderField("X-Trace", "t1"))
    let typed = try f.build(
      "books.create", [("title", bindText("x"))], headers: [HeaderField("Content-Type", "application/vnd.x+json")])
    #expect(typed.header("content-type") == "application/vnd.x+json")
    #expect(typed.headers.filter { $0.name.lowercased() == "content-type" }.count == 1)
    let removed = try f.build("books.create", [("title", bindText("x"))], headers: [HeaderField("Content-Type", "")])
    #expect(removed.header("Content-Type") == nil)
  }

  // MARK: usage errors

  @Test func missingRequiredParamsNameThemAndShowTheExample() throws {
    let one = try #require(f.error("imports.status"))
    #expect(one.message == "missing required parameter \"job_id\" for books.imports.status")
    #expect(one.hint == "usage: apx call books.imports.status job_id=JOB_ID")
    #expect(one.status == .usage)
    let create = try #require(f.error("imports.create"))
    #expect(create.hint == "usage: apx call books.imports.create csv=@csv.csv")
    let two = try #require(f.error("items.get"))
    #expect(two.message == "missing required parameters \"shelf\", \"id\" for books.items.get")
    #expect(two.hint == "usage: apx call books.items.get shelf=SHELF id:=1")
    let search = try #require(f.error("search", [("tags", bindText("a"))]))
    #expect(
      search.hint
        == "usage: apx call books.search q=Q [tags:='[\"a\"]'] [page:=1] [mode=MODE] [size:=1] [X-Request-Id=X-REQUEST-ID] [accept=ACCEPT] [token=TOKEN]"
    )
  }

  @Test func unknownParamsGetSuggestions() throws {
    let near = try #require(f.error("imports.status", [("jobid", bindText("1"))]))
    #expect(near.message == "books.imports.status has no parameter \"jobid\"")
    #expect(near.hint == "did you mean \"job_id\"?")
    #expect(near.status == .usage)
    let far = try #require(f.error("items.get", [("zzzzzz", bindText("1"))]))
    #expect(far.hint == "parameters: shelf, id")
    let none = try #require(f.error("ping", [("x", bindText("1"))]))
    #expect(none.hint == "this endpoint takes no parameters")
  }

  @Test func enumChecks() throws {
    let ok = try f.build("search", [("q", bindText("x")), ("mode", bindText("full")), ("size", bindText("20"))])
    #expect(ok.url.hasSuffix("&mode=full&size=20"))
    let bad = try #require(f.error("search", [("q", bindText("x")), ("mode", bindText("slow"))]))
    #expect(bad.message == "mode must be one of \"fast\", \"full\", got \"slow\"")
    #expect(bad.status == .usage)
    let badNumber = try #require(f.error("search", [("q", bindText("x")), ("size", bindText("15"))]))
    #expect(badNumber.message == "size must be one of 10, 20, got 15")
  }

  @Test func apiKeyPathPlaceholderIsLeftForTheAuthStep() throws {
    let gifs = try RequestFixture(
      top: #""auth": {"type": "api_key", "in": "path", "name": "api_key", "value": "${env:KEY}"}"#,
      endpoints: """
        "search": {"kind": "rest", "path": "/v1/{api_key}/gifs/{slug}", "params": {"slug": {"in": "path"}}},
        "open": {"kind": "rest", "path": "/v1/{api_key}/x", "auth": {"type": "none"}, "params": {"api_key": {"in": "path"}}}
        """)
    #expect(
      try gifs.build("search", [("slug", bindText("a b"))]).url == "http://127.0.0.1:8080/v1/{api_key}/gifs/a%20b")
    // With the API's key switched off, {api_key} is an ordinary parameter again.
    #expect(try gifs.build("open", [("api_key", bindText("k/1"))]).url == "http://127.0.0.1:8080/v1/k%2F1/x")
  }
}
