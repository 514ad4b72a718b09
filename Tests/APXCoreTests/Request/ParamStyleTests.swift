import APXCore
import Testing

/// `style` and `explode` send arrays and objects as OpenAPI's "Style Values" table says;
/// cookie parameters go into one Cookie header; the loader checks styles per location.
@Suite struct ParamStyleTests {
  static let array: JSONValue = .array([.int(3), .int(4), .int(5)])
  static let object: JSONValue = .object([JSONMember("R", .int(100)), JSONMember("G", .int(200))])

  func url(_ param: Param, _ value: JSONValue, path: String = "/x") throws -> String {
    let endpoint = Endpoint(name: "e", kind: .rest, method: "GET", path: path, params: [param])
    let api = APIDefinition(name: "a", endpoints: [endpoint], sourceFile: "a.json")
    return try RequestBuilder(api: api, endpoint: endpoint, baseURL: "http://h").build(
      .init(values: [(param.name, .json(value))])
    ).url
  }

  @Test(arguments: [
    (ParamStyle?.none, Bool?.none, "id=3&id=4&id=5"),
    (.form, false, "id=3%2C4%2C5"),
    (.spaceDelimited, nil, "id=3%204%205"),
    (.pipeDelimited, nil, "id=3%7C4%7C5"),
  ])
  func queryArrays(_ style: ParamStyle?, _ explode: Bool?, _ query: String) throws {
    let p = Param(name: "id", location: .query, type: .array, style: style, explode: explode)
    #expect(try url(p, Self.array) == "http://h/x?" + query)
  }

  @Test func queryObjects() throws {
    let deep = Param(name: "color", location: .query, type: .json, style: .deepObject, explode: true)
    #expect(try url(deep, Self.object) == "http://h/x?color%5BR%5D=100&color%5BG%5D=200")
    let form = Param(name: "color", location: .query, type: .json)
    #expect(try url(form, Self.object) == "http://h/x?R=100&G=200")
    let flat = Param(name: "color", location: .query, type: .json, explode: false)
    #expect(try url(flat, Self.object) == "http://h/x?color=R%2C100%2CG%2C200")
  }

  @Test(arguments: [
    (ParamStyle?.none, Bool?.none, "/x/3,4,5"),
    (.label, false, "/x/.3,4,5"),
    (.label, true, "/x/.3.4.5"),
    (.matrix, false, "/x/;id=3,4,5"),
    (.matrix, true, "/x/;id=3;id=4;id=5"),
  ])
  func pathArrays(_ style: ParamStyle?, _ explode: Bool?, _ expected: String) throws {
    let p = Param(name: "id", location: .path, type: .array, required: true, style: style, explode: explode)
    #expect(try url(p, Self.array, path: "/x/{id}") == "http://h" + expected)
  }

  @Test func pathScalarsAndObjects() throws {
    let label = Param(name: "id", location: .path, required: true, style: .label)
    #expect(try url(label, .string("a b"), path: "/x/{id}") == "http://h/x/.a%20b")
    let plain = Param(name: "id", location: .path, required: true)
    #expect(try url(plain, .string("a/b"), path: "/x/{id}") == "http://h/x/a%2Fb")
    let object = Param(name: "c", location: .path, type: .json, required: true, explode: true)
    #expect(try url(object, Self.object, path: "/x/{c}") == "http://h/x/R=100,G=200")
  }

  @Test func headersAndCookies() throws {
    let endpoint = Endpoint(
      name: "e", kind: .rest, method: "GET", path: "/x",
      params: [
        Param(name: "X-Ids", location: .header, type: .array),
        Param(name: "session", location: .cookie),
        Param(name: "theme", location: .cookie),
      ])
    let api = APIDefinition(
      name: "a", headers: [HeaderField("Cookie", "a=1")], endpoints: [endpoint], sourceFile: "a.json")
    let plan = try RequestBuilder(api: api, endpoint: endpoint, baseURL: "http://h").build(
      .init(values: [
        ("X-Ids", .json(Self.array)), ("session", .json(.string("s1"))), ("theme", .json(.string("dark"))),
      ]))
    #expect(plan.headers.contains(HeaderField("X-Ids", "3,4,5")))
    #expect(plan.headers.contains(HeaderField("Cookie", "a=1; session=s1; theme=dark")))
  }

  @Test func loaderReadsAndChecksStyles() throws {
    let api = try RegistryLoader.load(
      Array(
        """
        {"api": "a", "endpoints": {"e": {"kind": "rest", "path": "/x", "body_example": {"k": [1]}, "params": {
          "f": {"in": "query", "type": "json", "style": "deepObject", "explode": true, "deprecated": true},
          "c": {"in": "cookie"}}}}}
        """.utf8), file: "a.json")
    let e = try #require(api.endpoints.first)
    #expect(e.param(named: "f")?.style == .deepObject && e.param(named: "f")?.explode == true)
    #expect(e.param(named: "f")?.deprecated == true)
    #expect(e.param(named: "c")?.location == .cookie)
    #expect(e.bodyExample == .object([JSONMember("k", .array([.int(1)]))]))
    let bad = try #require(throws: APXErrors.self) {
      try RegistryLoader.load(
        Array(
          #"{"api": "a", "endpoints": {"e": {"kind": "rest", "path": "/x", "params": {"h": {"in": "header", "style": "deepObject"}, "q": {"in": "query", "style": "fancy"}}}}}"#
            .utf8), file: "a.json")
    }
    #expect(bad.errors.count == 2)
    #expect(bad.errors[0].message.contains("does not apply to a header parameter"))
    #expect(bad.errors[1].message.contains("unknown style"))
  }
}
