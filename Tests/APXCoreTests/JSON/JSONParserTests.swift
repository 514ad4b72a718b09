import Testing

@testable import APXCore

@Suite("JSONParser")
struct JSONParserTests {
  @Test("round trips keep key order and exact number text")
  func roundTrip() throws {
    let text =
      #"{"z":1,"a":[9007199254740993,1.10,-0,1e400,-1.5E-3,0.0,12345678901234567890123],"m":{"b":true,"a":false,"n":null},"s":"x"}"#
    let value = try JSONParser.parse(text)
    #expect(value.compactJSON == text)
    #expect(value.objectMembers?.map(\.key) == ["z", "a", "m", "s"])
    #expect(value["a"]?[0] == .number("9007199254740993"))
    #expect(value["a"]?[1] == .number("1.10"))
    #expect(value["a"]?[2] == .number("-0"))
    #expect(value["a"]?[3] == .number("1e400"))
  }

  @Test("duplicate keys are kept in order; lookup finds the first")
  func duplicateKeys() throws {
    let value = try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#)
    #expect(
      value.objectMembers == [
        JSONMember("a", .number("1")), JSONMember("b", .number("2")), JSONMember("a", .number("3")),
      ])
    #expect(value["a"] == .number("1"))
    #expect(value.compactJSON == #"{"a":1,"b":2,"a":3}"#)
  }

  @Test("scalars and whitespace around the value")
  func scalars() throws {
    #expect(try JSONParser.parse(" \t\r\n true \n") == .bool(true))
    #expect(try JSONParser.parse("false") == .bool(false))
    #expect(try JSONParser.parse("null") == .null)
    #expect(try JSONParser.parse("\"\"") == .string(""))
    #expect(try JSONParser.parse("[]") == .array([]))
    #expect(try JSONParser.parse("{ }") == .object([]))
    #expect(try JSONParser.parse("-12.5e+3") == .number("-12.5e+3"))
  }

  @Test("escapes, unicode escapes and surrogate pairs")
  func unicode() throws {
    #expect(try JSONParser.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    #expect(try JSONParser.parse(#""\u00e9\u4E2D""#) == .string("é中"))
    #expect(try JSONParser.parse(#""\ud83d\ude00!""#) == .string("😀!"))
    #expect(try JSONParser.parse(#""\u0000""#) == .string("\u{0}"))
    #expect(try JSONParser.parse("\"é中😀\"") == .string("é中😀"))
    // Broken surrogates become U+FFFD instead of failing.
    #expect(try JSONParser.parse(#""\ud83dx""#) == .string("\u{FFFD}x"))
    #expect(try JSONParser.parse(#""\ude00""#) == .string("\u{FFFD}"))
    #expect(try JSONParser.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"))
  }

  struct BadInput: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { text.debugDescription }
  }

  static let badInputs: [BadInput] = [
    BadInput(text: "", line: 1, column: 1, message: "unexpected end of input, expected a value"),
    BadInput(text: "   ", line: 1, column: 4, message: "unexpected end of input, expected a value"),
    BadInput(text: "{", line: 1, column: 2, message: "expected a string key in double quotes"),
    BadInput(text: "{a:1}", line: 1, column: 2, message: "unexpected 'a', expected a string key in double quotes"),
    BadInput(text: #"{"a" 1}"#, line: 1, column: 6, message: "expected ':' after the key \"a\""),
    BadInput(text: #"{"a":1,}"#, line: 1, column: 8, message: "unexpected '}', expected a string key"),
    BadInput(text: #"{"a":1 "b":2}"#, line: 1, column: 8, message: "expected ',' or '}'"),
    BadInput(text: #"{"a":1"#, line: 1, column: 7, message: "unexpected end of input, expected ',' or '}'"),
    BadInput(text: "[1,]", line: 1, column: 4, message: "unexpected ']', expected a value"),
    BadInput(text: "[1 2]", line: 1, column: 4, message: "unexpected '2', expected ',' or ']'"),
    BadInput(text: "[1", line: 1, column: 3, message: "unexpected end of input, expected ',' or ']'"),
    BadInput(text: "01", line: 1, column: 2, message: "leading zeros"),
    BadInput(text: "-", line: 1, column: 2, message: "a number needs a digit after '-'"),
    BadInput(text: "-a", line: 1, column: 2, message: "a number needs a digit after '-'"),
    BadInput(text: "1.", line: 1, column: 3, message: "a number needs a digit after '.'"),
    BadInput(text: "1e", line: 1, column: 3, message: "a number needs a digit in its exponent"),
    BadInput(text: "1e+", line: 1, column: 4, message: "a number needs a digit in its exponent"),
    BadInput(text: "+1", line: 1, column: 1, message: "unexpected '+', expected a value"),
    BadInput(text: ".5", line: 1, column: 1, message: "unexpected '.', expected a value"),
    BadInput(text: "tru", line: 1, column: 1, message: "expected a value"),
    BadInput(text: "nul", line: 1, column: 1, message: "expected a value"),
    BadInput(text: "True", line: 1, column: 1, message: "unexpected 'T', expected a value"),
    BadInput(text: #""abc"#, line: 1, column: 5, message: "unterminated string"),
    BadInput(text: #""a\x""#, line: 1, column: 4, message: "invalid escape '\\x' in a string"),
    BadInput(text: #""\u12G4""#, line: 1, column: 6, message: "\\u needs four hex digits"),
    BadInput(text: #""\u12""#, line: 1, column: 4, message: "\\u needs four hex digits"),
    BadInput(text: "\"a\nb\"", line: 1, column: 3, message: "control character byte 0x0A inside a string"),
    BadInput(text: "\"a\tb\"", line: 1, column: 3, message: "control character byte 0x09 inside a string"),
    BadInput(text: "[1] x", line: 1, column: 5, message: "unexpected 'x' after the end of the JSON value"),
    BadInput(text: "{}{}", line: 1, column: 3, message: "after the end of the JSON value"),
    BadInput(text: "{\n  \"a\": tru\n}", line: 2, column: 8, message: "expected a value"),
    BadInput(text: "[\n1,\n\n  @]", line: 4, column: 3, message: "unexpected '@', expected a value"),
    // Columns count Unicode scalars, not bytes.
    BadInput(text: "[\"é中😀\", x]", line: 1, column: 9, message: "unexpected 'x'"),
    BadInput(text: "\u{FEFF}{}", line: 1, column: 1, message: "byte 0xEF"),
  ]

  @Test("syntax errors say what and where", arguments: badInputs)
  func syntaxErrors(_ bad: BadInput) throws {
    let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(bad.text) }
    #expect(error?.location == SourceLocation(line: bad.line, column: bad.column))
    #expect(error?.message.contains(bad.message) == true, "\(error?.message ?? "no error")")
  }

  @Test("the error offset is a byte offset")
  func errorOffset() throws {
    let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[\"é\", x]") }
    #expect(error?.offset == 7)
    #expect(error?.description == "1:7: unexpected 'x', expected a value")
  }

  @Test("nesting up to maxDepth parses, deeper is rejected without crashing")
  func deepNesting() throws {
    let depth = JSONParser.maxDepth
    let ok = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(try JSONParser.parse(ok).arrayValue?.count == 1)
    let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
    let error = #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(tooDeep) }
    #expect(error?.message.contains("nesting deeper than") == true)
    #expect(error?.offset == depth)
    let objects = String(repeating: #"{"a":"#, count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(objects) }
  }

  @Test("invalid UTF-8 in strings is repaired, not fatal")
  func invalidUTF8() throws {
    let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0x22]
    #expect(try JSONParser.parse(bytes) == .string("a\u{FFFD}b"))
  }

  @Test("parseDocument records where each value starts")
  func locations() throws {
    let doc = try JSONParser.parseDocument(Array("{\n  \"a\": [1,\n    {\"b\": null}]\n}".utf8))
    #expect(doc.locations[[]] == SourceLocation(line: 1, column: 1))
    #expect(doc.locations[[.key("a")]] == SourceLocation(line: 2, column: 8))
    #expect(doc.locations[[.key("a"), .index(1), .key("b")]] == SourceLocation(line: 3, column: 11))
    #expect(doc.location(of: [.key("a"), .index(5)]) == SourceLocation(line: 2, column: 8))
  }

  @Test("locations on one long line count Unicode scalars (incremental column counting)")
  func locationsOnOneLine() throws {
    let doc = try JSONParser.parseDocument(Array(#"[1, "é", {"a": 2}]"#.utf8))
    #expect(doc.locations[[.index(0)]] == SourceLocation(line: 1, column: 2))
    #expect(doc.locations[[.index(1)]] == SourceLocation(line: 1, column: 5))
    #expect(doc.locations[[.index(2)]] == SourceLocation(line: 1, column: 10))
    #expect(doc.locations[[.index(2), .key("a")]] == SourceLocation(line: 1, column: 16))
    let big = "[" + (0..<20_000).map { #"{"id":\#($0),"n":"é"}"# }.joined(separator: ",") + "]"
    let bigDoc = try JSONParser.parseDocument(Array(big.utf8))
    #expect(bigDoc.locations[[.index(19_999), .key("n")]]?.column == big.unicodeScalars.count - 4)
  }
}
