import APXCore
import Testing

/// `style` and `explode` send arrays and objects as OpenAPI's "Style Values" table says;
/// cookie parameters go into one Cookie header; the loader checks styles per location.
@Suite struct ParamStyleTests {
  static let array: JSONValue = .array([.int(3), .int(4), .int(5)])
  static let object: JSONValue = .object([JSONMember("R", .int(100)), JSONMember("G", .int(200))])

  func url(_ param: Param, _ value: JSONValue, path: String = "/x") throws -> String {
    let endpoint = Endpoint(name: "e", options: .rest(HTTPRoute(method: "GET", path: path)), params: [param])
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

  /// OpenAPI 3.1.1's "Style Examples" (which follow RFC 6570) for a path parameter `color`:
  /// `"blue"`, `["blue", "black", "brown"]` and `{"R": 100, "G": 200, "B": 150}`, with every
  /// style and explode a path allows; then an empty string.
  @Test(arguments: [
    (ParamStyle.simple, false, "blue", "blue,black,brown", "R,100,G,200,B,150", ""),
    (.simple, true, "blue", "blue,black,brown", "R=100,G=200,B=150", ""),
    (.label, false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150", "."),
    (.label, true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150", "."),
    (.matrix, false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150", ";color"),
    (.matrix, true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150", ";color"),
  ])
  func pathStyleTable(
    _ style: ParamStyle, _ explode: Bool, _ string: String, _ array: String, _ object: String, _ empty: String
  ) throws {
    let colors: JSONValue = .array([.string("blue"), .string("black"), .string("brown")])
    let rgb: JSONValue = .object([JSONMember("R", .int(100)), JSONMember("G", .int(200)), JSONMember("B", .int(150))])
    for (type, value, expected) in [
      (ParamType.string, JSONValue.string("blue"), string), (.array, colors, array), (.json, rgb, object),
      (.string, .string(""), empty),
    ] {
      let p = Param(name: "color", location: .path, type: type, required: true, style: style, explode: explode)
      #expect(try url(p, value, path: "/c/{color}/x") == "http://h/c/" + expected + "/x", "\(type) \(value)")
    }
  }

  /// Reserved characters inside a value are percent-encoded, so a value stays one value
  /// (a comma in an item is not a separator, a slash not a new segment).
  @Test func pathValuesAreEncodedAsOneValue() throws {
    let simple = Param(name: "id", location: .path, type: .array, required: true)
    let items: JSONValue = .array([.string("a,b"), .string("c/d"), .string("e;f=g"), .string("ü ?#")])
    #expect(try url(simple, items, path: "/x/{id}") == "http://h/x/a%2Cb,c%2Fd,e%3Bf%3Dg,%C3%BC%20%3F%23")
    let matrix = Param(name: "id", location: .path, required: true, style: .matrix)
    #expect(try url(matrix, .string("a;b=c"), path: "/x/{id}") == "http://h/x/;id=a%3Bb%3Dc")
    let renamed = Param(name: "id", location: .path, required: true, wireName: "the id", style: .matrix)
    #expect(try url(renamed, .string("1"), path: "/x/{id}") == "http://h/x/;the%20id=1")
    let plain = Param(name: "id", location: .path, required: true)
    #expect(try url(plain, .string("../admin"), path: "/x/{id}") == "http://h/x/..%2Fadmin")
    // A whole value of "." or ".." would be a dot-segment that clients and servers remove.
    #expect(try url(plain, .string(".."), path: "/x/{id}/y") == "http://h/x/%2E%2E/y")
    #expect(try url(plain, .string("."), path: "/x/{id}/y") == "http://h/x/%2E/y")
    let nested: JSONValue = .array([.array([.int(1)])])
    #expect(throws: APXError.self) { try url(simple, nested, path: "/x/{id}") }
  }

  @Test func headersAndCookies() throws {
    let endpoint = Endpoint(
      name: "e", options: .rest(HTTPRoute(method: "GET", path: "/x")),
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
