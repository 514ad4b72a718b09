import Testing

@testable import APXCore

@Suite("JSONPath")
struct JSONPathTests {
  static let data: JSONValue = {
    do {
      return try JSONParser.parse(
        #"""
        {"data": {"items": [{"id": 1, "name": "a", "tags": ["x"]}, {"id": 2, "name": "b"}, {"id": 9007199254740993, "name": null}],
                  "total": 3},
         "key with.dots": "dotted", "a-b": "dashed", "é": "accent", "": "empty key",
         "text": "héllo wörld", "n": null, "dup": 1, "dup": 2}
        """#)
    } catch {
      return .null
    }
  }()

  struct Case: Sendable, CustomTestStringConvertible {
    var path: String
    var results: [String]
    var testDescription: String { path }
  }

  static let cases: [Case] = [
    Case(path: ".data.total", results: ["3"]),
    Case(path: "  .data.total  ", results: ["3"]),
    Case(path: ".data.items[0].name", results: [#""a""#]),
    Case(path: ".data.items[-1].id", results: ["9007199254740993"]),
    Case(path: ".data.items[-3].id", results: ["1"]),
    Case(path: ".data.items[].id", results: ["1", "2", "9007199254740993"]),
    Case(path: ".data.items[].tags", results: [#"["x"]"#, "null", "null"]),
    Case(path: ".data.items[1:3][].id", results: ["2", "9007199254740993"]),
    Case(path: ".data.items[:1][].name", results: [#""a""#]),
    Case(path: ".data.items[5]", results: ["null"]),
    Case(path: ".data.items[-9]", results: ["null"]),
    Case(path: ".missing", results: ["null"]),
    Case(path: ".missing.deeper[0]", results: ["null"]),
    Case(path: ".n.x", results: ["null"]),
    Case(path: #".["key with.dots"]"#, results: [#""dotted""#]),
    Case(path: #"."key with.dots""#, results: [#""dotted""#]),
    Case(path: #".["a-b"]"#, results: [#""dashed""#]),
    Case(path: #"."é""#, results: [#""accent""#]),
    Case(path: #".["\u00e9"]"#, results: [#""accent""#]),
    Case(path: #".[""]"#, results: [#""empty key""#]),
    Case(path: #".data["items"][0]["id"]"#, results: ["1"]),
    Case(path: ".data.items.[1].id", results: ["2"]),
    Case(path: ".", results: []),
    Case(path: ".dup", results: ["1"]),
    Case(path: ".text[1:4]", results: [#""éll""#]),
    Case(path: ".text[-5:]", results: [#""wörld""#]),
    Case(path: ".data[]", results: []),
    Case(path: ".data.items[].name?", results: [#""a""#, #""b""#, "null"]),
    Case(path: ".text.x?", results: []),
    Case(path: ".data.items[].tags[0]?", results: [#""x""#, "null", "null"]),
    Case(path: ".data.items[]?.id", results: ["1", "2", "9007199254740993"]),
  ]

  @Test("selects like jq", arguments: cases)
  func selects(_ testCase: Case) throws {
    let path = try JSONPath(parsing: testCase.path)
    let results = try path.select(in: Self.data)
    if testCase.path == "." {
      #expect(results == [Self.data])
    } else if testCase.path == ".data[]" {
      #expect(results.count == 2)
      #expect(results.last == .number("3"))
    } else {
      #expect(results.map(\.compactJSON) == testCase.results)
    }
  }

  @Test("slices follow jq's bounds")
  func slices() throws {
    let array = JSONValue.array((0..<5).map { .int($0) })
    func slice(_ text: String) throws -> String {
      try JSONPath(parsing: text).select(in: array).map(\.compactJSON).joined()
    }
    #expect(try slice(".[1:3]") == "[1,2]")
    #expect(try slice(".[3:]") == "[3,4]")
    #expect(try slice(".[:2]") == "[0,1]")
    #expect(try slice(".[-2:]") == "[3,4]")
    #expect(try slice(".[:-1]") == "[0,1,2,3]")
    #expect(try slice(".[4:2]") == "[]")
    #expect(try slice(".[10:20]") == "[]")
    #expect(try slice(".[-10:1]") == "[0]")
    #expect(try slice(".[:]") == "[0,1,2,3,4]")
    #expect(try JSONPath(parsing: ".[1:2]").select(in: .null) == [.null])
  }

  @Test("iterating an object yields its member values in order")
  func iterateObject() throws {
    let value = try JSONParser.parse(#"{"b":1,"a":2}"#)
    #expect(try JSONPath(parsing: ".[]").select(in: value) == [.number("1"), .number("2")])
    #expect(try JSONPath(parsing: ".[]").select(in: .array([])) == [])
  }

  struct Failure: Sendable, CustomTestStringConvertible {
    var path: String
    var message: String
    var at: String
    var testDescription: String { path }
  }

  static let failures: [Failure] = [
    Failure(path: ".text.b", message: #"cannot index string with "b""#, at: ".text"),
    Failure(path: ".data.total.x", message: #"cannot index number with "x""#, at: ".data.total"),
    Failure(path: ".data.items.id", message: #"cannot index array with "id""#, at: ".data.items"),
    Failure(path: ".data[0]", message: "cannot index object with number", at: ".data"),
    Failure(path: ".text[]", message: "cannot iterate over string", at: ".text"),
    Failure(path: ".n[]", message: "cannot iterate over null", at: ".n"),
    Failure(path: ".data.items[].name.first", message: #"cannot index string with "first""#, at: ".data.items[0].name"),
    Failure(path: ".data[1:2]", message: "cannot slice object", at: ".data"),
  ]

  @Test("type mismatches are errors naming the type and where", arguments: failures)
  func typeErrors(_ failure: Failure) throws {
    let path = try JSONPath(parsing: failure.path)
    let error = #expect(throws: APXError.self) { try path.select(in: Self.data) }
    #expect(error?.message == failure.message)
    #expect(error?.path == failure.at)
    #expect(error?.status == .usage)
  }

  struct ParseFailure: Sendable, CustomTestStringConvertible {
    var path: String
    var column: Int
    var expected: String
    var testDescription: String { path }
  }

  static let parseFailures: [ParseFailure] = [
    ParseFailure(path: "", column: 1, expected: "expected '.' at the start of the path"),
    ParseFailure(path: "data.items", column: 1, expected: "unexpected 'd' at column 1, expected '.' at the start"),
    ParseFailure(path: ".a.", column: 4, expected: "unexpected end of path at column 4, expected a key name"),
    ParseFailure(path: ".a..b", column: 4, expected: "unexpected '.' at column 4, expected a key name"),
    ParseFailure(path: "..", column: 2, expected: "expected a key name"),
    ParseFailure(path: ".items[0", column: 9, expected: "unexpected end of path at column 9, expected ']'"),
    ParseFailure(path: ".items[x]", column: 8, expected: "unexpected 'x' at column 8, expected ']', a quoted key"),
    ParseFailure(path: ".items[1:x]", column: 10, expected: "expected ']'"),
    ParseFailure(path: ".items[-]", column: 9, expected: "expected a digit after '-'"),
    ParseFailure(path: ".a b", column: 4, expected: "expected end of path"),
    ParseFailure(
      path: ".a-b", column: 3, expected: "unexpected '-' at column 3, expected '.', '[', '?' or end of path"),
    ParseFailure(path: ".1", column: 2, expected: "expected a key name"),
    ParseFailure(path: #".["abc]"#, column: 8, expected: "a closing '\"'"),
    ParseFailure(path: #"."a\x""#, column: 2, expected: "a valid JSON string"),
    ParseFailure(path: ".é", column: 2, expected: "unexpected 'é' at column 2"),
    ParseFailure(path: ".[99999999999999999999]", column: 3, expected: "a smaller index"),
  ]

  @Test("parse errors say where and what is expected", arguments: parseFailures)
  func parseErrors(_ failure: ParseFailure) {
    let error = #expect(throws: APXError.self) { try JSONPath(parsing: failure.path) }
    #expect(error?.status == .usage)
    #expect(error?.location?.column == failure.column)
    #expect(error?.message.contains(failure.expected) == true, "\(error?.message ?? "no error")")
    #expect(error?.hint?.isEmpty == false)
  }

  @Test("paths render back to jq syntax")
  func rendering() throws {
    let path = try JSONPath(parsing: #".data["key with.dots"].items[-1][][1:][:2]?"#)
    #expect(JSONPathStep.render(path.steps) == #".data["key with.dots"].items[-1][][1:][:2]?"#)
    #expect(JSONPath(steps: []).text == ".")
    #expect(path.iterates)
    #expect(try !JSONPath(parsing: ".a[0]").iterates)
  }

  @Test("selectValue gives one value, an array when iterating, nil for nothing")
  func selectValue() throws {
    #expect(try JSONPath(parsing: ".data.total").selectValue(in: Self.data) == .number("3"))
    #expect(
      try JSONPath(parsing: ".data.items[].id").selectValue(in: Self.data)?.compactJSON == "[1,2,9007199254740993]")
    #expect(try JSONPath(parsing: ".text.x?").selectValue(in: Self.data) == nil)
  }

  /// A path of plain keys is walked without the evaluator (a stream's progress is read from
  /// every message); the answers must stay the evaluator's, errors included.
  @Test(
    "selectValue of plain keys answers as the evaluator does",
    arguments: [".data.total", ".data", ".dup", ".n", ".n.deeper", ".missing", ".missing.deeper", ".", ".data.items"])
  func plainKeysAnswerAsTheEvaluator(_ text: String) throws {
    let path = try JSONPath(parsing: text)
    let walked = try path.selectValue(in: Self.data)
    var evaluator = JSONPathEvaluator(path: path, strict: false)
    #expect(walked == (try evaluator.run(Self.data)).first, "\(text)")
  }

  @Test("selectValue of plain keys through a non-object still fails as the evaluator does")
  func plainKeysThroughAStringFail() throws {
    let error = #expect(throws: APXError.self) { try JSONPath(parsing: ".text.x").selectValue(in: Self.data) }
    #expect(error?.message.contains("cannot index string") == true, "\(String(describing: error))")
  }

  @Test("strict selection treats missing keys and indexes as errors")
  func strict() throws {
    let missing = #expect(throws: APXError.self) { try JSONPath(parsing: ".data.totl").selectStrictly(in: Self.data) }
    #expect(missing?.message == #"no key "totl" here"#)
    #expect(missing?.path == ".data")
    #expect(missing?.hint?.contains(#""total""#) == true)
    let range = #expect(throws: APXError.self) { try JSONPath(parsing: ".data.items[7]").selectStrictly(in: Self.data) }
    #expect(range?.message == "index 7 is out of range: the array has 3 elements")
    #expect(throws: APXError.self) { try JSONPath(parsing: ".n.x").selectStrictly(in: Self.data) }
    #expect(try JSONPath(parsing: ".data.items[-1].id").selectStrictly(in: Self.data) == [.number("9007199254740993")])
  }
}
