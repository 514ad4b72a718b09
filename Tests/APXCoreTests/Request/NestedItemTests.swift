import APXCore
import Testing

/// Nested request items in HTTPie 3's nested-JSON syntax: the key parser, the value
/// assembly (the examples of HTTPie's own documentation give the expected bodies) and
/// where `RequestItems` sends each item.
@Suite struct NestedItemTests {
  /// The parsed `.param` item of `text`.
  func argument(_ text: String) throws -> ParamArgument {
    guard case .param(let argument) = try RequestItem(parsing: text) else {
      Issue.record("\(text) is not a parameter item")
      throw APXError(.internalFailure, "not a parameter")
    }
    return argument
  }

  /// The JSON body HTTPie would send for `items` (the values of every root, or the top-level array).
  func body(_ items: [String]) throws -> String {
    var values: [(name: String, nested: NestedPath?, value: BoundValue)] = []
    for text in items {
      let a = try argument(text)
      switch a.value {
      case .text(let s): values.append((a.name, a.nested, .json(.string(s))))
      case .json(let v): values.append((a.name, a.nested, .json(v)))
      default: Issue.record("files are not bound here")
      }
    }
    let assembled = try NestedItems.assemble(values) { _ in true }
    if let array = assembled.body { return array.compactJSON }
    return JSONValue.object(
      assembled.values.map { name, bound in
        guard case .json(let v) = bound else { return JSONMember(name, .null) }
        return JSONMember(name, v)
      }
    ).compactJSON
  }

  // MARK: The key syntax

  @Test(arguments: [
    ("user[name]=Ann", "user", [NestedPath.Step.key("user"), .key("name")]),
    ("a[b][c]=x", "a", [.key("a"), .key("b"), .key("c")]),
    ("tags[]=x", "tags", [.key("tags"), .append]),
    ("points[0]:=1", "points", [.key("points"), .index(0)]),
    ("[]:=1", "", [.append]),
    ("[3][id]=x", "", [.index(3), .key("id")]),
    ("o[\\1]=x", "o", [.key("o"), .key("1")]),
    ("o[\\\\1]=x", "o", [.key("o"), .key("\\1")]),
    ("o[a\\]b]=x", "o", [.key("o"), .key("a]b")]),
    ("o[\\[]=x", "o", [.key("o"), .key("[")]),
    ("o[a b]=x", "o", [.key("o"), .key("a b")]),
    ("o[x\\=y]=z", "o", [.key("o"), .key("x=y")]),
    ("123[a]=x", "123", [.key("123"), .key("a")]),
  ])
  func keysParse(_ text: String, _ root: String, _ steps: [NestedPath.Step]) throws {
    let a = try argument(text)
    #expect(a.name == root)
    #expect(a.nested?.steps == steps)
    #expect(a.nested?.source == String(text.prefix { $0 != "=" && $0 != ":" }) || text.contains("\\="))
  }

  @Test(arguments: [
    ("a\\[b\\]=1", "a[b]"), ("[a]=1", "a"), ("plain=1", "plain"), ("a\\\\b=1", "a\\b"), ("x\\[=1", "x["),
  ])
  func keysWithoutSyntaxBracketsArePlainNames(_ text: String, _ name: String) throws {
    let a = try argument(text)
    #expect(a.name == name)
    #expect(a.nested == nil)
  }

  @Test func queryHeaderAndFilePartNamesKeepTheirBrackets() throws {
    #expect(try RequestItem(parsing: "filter[status]==open") == .query(name: "filter[status]", value: "open"))
    #expect(try RequestItem(parsing: "files[]@a.txt") == .filePart(name: "files[]", path: "a.txt"))
    #expect(try RequestItem(parsing: "f\\[x]==1") == .query(name: "f[x]", value: "1"))
  }

  @Test(arguments: [
    ("a[b=1", "a '[' that is never closed", "a[b\n" + String(repeating: " ", count: 10) + "^^"),
    ("a]b=1", "a ']' with no '[' before it", "a]b\n" + String(repeating: " ", count: 10) + "^"),
    ("a[b]c=1", "text after ']'", "a[b]c\n" + String(repeating: " ", count: 13) + "^"),
    ("a[[b]]=1", "a '[' inside", "a[[b]]\n" + String(repeating: " ", count: 11) + "^"),
    ("a[-1]=1", "a negative index", "a[-1]\n" + String(repeating: " ", count: 10) + "^^^^"),
    ("a[10001]=1", "above 10000", "a[10001]\n" + String(repeating: " ", count: 10) + "^^^^^^^"),
    ("a[99999999999999999999999]=1", "above 10000", nil),
  ])
  func malformedKeysAreUsageErrorsWithACaret(_ text: String, _ what: String, _ cause: String?) throws {
    let error = try #require(throws: APXError.self) { try RequestItem(parsing: text) }
    #expect(error.status == .usage)
    #expect(error.message.contains(what), "\(error.message)")
    if let cause { #expect(error.cause == cause, "\(error.description)") }
    #expect(error.hint?.contains("name[key]=value") == true || error.hint?.contains("[\\") == true)
  }

  // MARK: Assembly, as HTTPie documents it

  @Test func objectsArraysAndTypesNest() throws {
    let body = try body([
      "platform[name]=HTTPie", "platform[about][mission]=Make APIs simple and intuitive",
      "platform[about][homepage]=httpie.io", "platform[about][stars]:=54000", "platform[apps][]=Terminal",
      "platform[apps][]=Desktop", "platform[apps][]=Web", "platform[apps][]=Mobile",
    ])
    #expect(
      body
        == #"{"platform":{"name":"HTTPie","about":{"mission":"Make APIs simple and intuitive","homepage":"httpie.io","stars":54000},"apps":["Terminal","Desktop","Web","Mobile"]}}"#
    )
  }

  @Test func indexesFillWithNullAndAppendsGoLast() throws {
    #expect(try body(["array[1]=indexified"]) == #"{"array":[null,"indexified"]}"#)
    #expect(try body(["a[2]=c", "a[0]=a", "a[]=d"]) == #"{"a":["a",null,"c","d"]}"#)
    #expect(try body(["a[0][x]=1", "a[0][y]=2", "a[][x]=3"]) == #"{"a":[{"x":"1","y":"2"},{"x":"3"}]}"#)
    #expect(try body(["a[b]=1", "a[b]=2"]) == #"{"a":{"b":"2"}}"#, "a later value replaces, as in HTTPie")
  }

  @Test func escapesKeepBracketsAndNumbersInKeys() throws {
    #expect(
      try body(["foo\\[bar\\]:=1", "baz[\\[]:=2", "baz[\\]]:=3"]) == #"{"foo[bar]":1,"baz":{"[":2,"]":3}}"#)
    #expect(
      try body(["object[\\1]=stringified", "object[\\100]=same", "array[1]=indexified"])
        == #"{"object":{"1":"stringified","100":"same"},"array":[null,"indexified"]}"#)
  }

  @Test func topLevelArraysAreTheWholeBody() throws {
    #expect(try body(["[]:=1", "[]:=2", "[]:=3"]) == "[1,2,3]")
    #expect(try body(["[][type]=platform", "[0][name]=HTTPie"]) == #"[{"type":"platform","name":"HTTPie"}]"#)
  }

  @Test(arguments: [
    (["foo[bar]=1", "foo[]=2"], "[] appends and needs an array, but foo is an object here", "foo[]", 12, 2),
    (["foo[]=1", "foo[x]=2"], "[x] is a key and needs an object, but foo is an array here", "foo[x]", 12, 3),
    (["a[b]=1", "a[b][c]=2"], "[c] is a key and needs an object, but a[b] is a string here", "a[b][c]", 13, 3),
    (["a[b]:=null", "a[b][0]=2"], "[0] is an index and needs an array, but a[b] is null here", "a[b][0]", 13, 3),
    (["[]:=1", "x[y]=1"], "the field \"x\" needs an object body, but the body is an array", "x[y]", 9, 1),
    (["x[y]=1", "[]:=1"], "[] appends and needs an array, but the body is an object", "[]", 9, 2),
  ])
  func typeConflictsAreUsageErrorsWithACaret(
    _ items: [String], _ message: String, _ key: String, _ column: Int, _ width: Int
  ) throws {
    let error = try #require(throws: APXError.self) { try body(items) }
    #expect(error.status == .usage)
    #expect(error.message.contains(message), "\(error.message)")
    #expect(error.cause == key + "\n" + String(repeating: " ", count: column) + String(repeating: "^", count: width))
  }

  @Test func aTopLevelArrayCannotGoWithPlainFields() throws {
    let error = try #require(throws: APXError.self) { try body(["[]:=1", "name=Ann"]) }
    #expect(error.message.contains("cannot have the field \"name\""), "\(error.message)")
  }

  @Test func aParameterIsGivenWholeOrByPartsNotBoth() throws {
    for items in [["user:={}", "user[name]=Ann"], ["user[name]=Ann", "user=x"]] {
      let error = try #require(throws: APXError.self) { try body(items) }
      #expect(error.message.contains("given both whole"), "\(error.message)")
    }
  }

  // MARK: Where items go

  static let registry = """
    {"api": "t", "environments": {"l": {"base_url": "http://127.0.0.1:1"}}, "endpoints": {
      "json": {"kind": "rest", "method": "POST", "path": "/j",
               "params": {"user": {"in": "body", "type": "json"}, "page[size]": {"in": "query", "type": "integer"},
                          "filter": {"in": "query", "type": "json", "style": "deepObject"}}},
      "form": {"kind": "rest", "method": "POST", "path": "/f", "body": "form",
               "params": {"metadata": {"in": "form", "type": "json", "style": "deepObject", "explode": true,
                                       "required": true},
                          "expand": {"in": "form", "type": "array", "style": "deepObject", "explode": true,
                                     "default": ["x"]},
                          "name": {"in": "form"}}}}}
    """

  func endpoint(_ name: String) throws -> Endpoint {
    let api = try RegistryLoader.load(Array(Self.registry.utf8), file: "t.json")
    return try #require(api.endpoint(named: name))
  }

  func apply(_ items: [String], to endpoint: inout Endpoint, declareBody: Bool = false) throws -> [ParamArgument] {
    try RequestItems.apply(
      items.map { text throws(APXError) in try RequestItem(parsing: text) }, to: &endpoint, declareBody: declareBody
    ).arguments
  }

  @Test func aRegistryJSONParameterIsBuiltFromItsParts() throws {
    var e = try endpoint("json")
    let args = try apply(["user[name]=Ann", "filter[status]=open", "page[size]=2"], to: &e)
    #expect(args.map(\.name) == ["user", "filter", "page[size]"])
    #expect(args[0].nested != nil && args[1].nested != nil)
    #expect(args[2].nested == nil, "a parameter named exactly page[size] is bound as it is")
  }

  @Test func aRegistryFormBodyTakesBracketKeysAsFieldNames() throws {
    var e = try endpoint("form")
    let args = try apply(["metadata[foo]=bar", "expand[]=tax", "expand[]=email"], to: &e)
    #expect(args.map(\.name) == ["metadata[foo]", "expand[]", "expand[]"])
    #expect(args.allSatisfy { $0.nested == nil })
    let field = try #require(e.param(named: "metadata[foo]"))
    #expect(field.location == .form && field.type == .string && field.style == nil)
    #expect(e.param(named: "expand[]")?.type == .json, "repeated: collected into an array")
    #expect(e.param(named: "metadata")?.required == false, "its parts give it")
    #expect(e.param(named: "expand")?.defaultValue == nil, "its default is not sent beside its parts")
  }

  @Test func anAdHocFormTakesBracketKeysAsFieldNames() throws {
    var e = Endpoint(name: "POST /x", options: .rest(HTTPRoute(method: "POST", path: "/x")), bodyEncoding: .form)
    let args = try apply(["metadata[foo]=bar", "items[0][price]=p"], to: &e, declareBody: true)
    #expect(args.map(\.name) == ["metadata[foo]", "items[0][price]"])
    #expect(e.params.map(\.name) == ["metadata[foo]", "items[0][price]"])
    var json = Endpoint(name: "POST /x", options: .rest(HTTPRoute(method: "POST", path: "/x")))
    let nested = try apply(["user[name]=Ann", "user[age]:=3", "[]:=1"], to: &json, declareBody: true)
    #expect(nested.map(\.name) == ["user", "user", ""])
    #expect(json.params.map(\.name) == ["user"])
    #expect(json.param(named: "user")?.type == .json)
    let error = try #require(throws: APXError.self) { try apply(["[]=1"], to: &e, declareBody: true) }
    #expect(error.message.contains("a form body has no top-level array"))
  }

  @Test func wholeAndPartsConflictBeforeAnythingIsDeclared() throws {
    var e = Endpoint(name: "POST /x", options: .rest(HTTPRoute(method: "POST", path: "/x")))
    let error = try #require(throws: APXError.self) {
      try apply(["user=x", "user[name]=Ann"], to: &e, declareBody: true)
    }
    #expect(error.status == .usage)
    #expect(error.message == "\"user\" is given both whole (user=… or user:=…) and by parts (user[…]=…)")
    #expect(e.params.isEmpty)
  }
}
