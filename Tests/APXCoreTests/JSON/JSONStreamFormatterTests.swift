import Testing

@testable import APXCore

@Suite("JSONStreamFormatter")
struct JSONStreamFormatterTests {
  /// Escapes here are the canonical ones the tree printer writes, so the
  /// streaming output (which keeps escapes as sent) must match it exactly.
  static let documents: [String] = [
    #"{"id":9007199254740993,"name":"é中😀 \"q\" \\ \n","price":1.10,"tiny":-1.5E-3,"big":1e400,"#
      + #""tags":["a","b",[],{}],"ok":true,"no":false,"none":null,"nested":{"list":[{"x":-0},[1,[2,[3]]]]}}"#,
    #"[1,2.5,-3e+2,0,"",{"a":{"b":{"c":[]}}}]"#,
    "  \n\t{ \"spaced\" : [ 1 , 2 ] , \"x\" : { } }  \r\n",
    #""just a string \u0001""#,
    "42",
    "-0.5e-7",
    "true",
    "null",
    "[]",
    "{}",
  ]

  static func format(_ chunks: [[UInt8]], style: JSONOutputStyle, colors: JSONColors? = nil) throws -> [UInt8] {
    var formatter = JSONStreamFormatter(style: style, colors: colors)
    var out: [UInt8] = []
    for chunk in chunks { try formatter.feed(chunk, into: &out) }
    try formatter.finish(into: &out)
    return out
  }

  static func expected(_ text: String, style: JSONOutputStyle, colors: JSONColors? = nil) throws -> [UInt8] {
    JSONPrinter(style: style, colors: colors).bytes(try JSONParser.parse(text)) + [0x0A]
  }

  @Test("whole documents format like the tree printer", arguments: documents)
  func whole(_ text: String) throws {
    for style in [JSONOutputStyle.pretty, .compact] {
      #expect(try Self.format([Array(text.utf8)], style: style) == Self.expected(text, style: style))
      #expect(
        try Self.format([Array(text.utf8)], style: style, colors: .default)
          == Self.expected(text, style: style, colors: .default))
    }
  }

  @Test("split into two chunks at every byte position, output is identical", arguments: documents)
  func everySplit(_ text: String) throws {
    let bytes = Array(text.utf8)
    for style in [JSONOutputStyle.pretty, .compact] {
      let expected = try Self.expected(text, style: style)
      let coloredExpected = try Self.expected(text, style: style, colors: .default)
      for split in 0...bytes.count {
        let chunks = [Array(bytes[..<split]), Array(bytes[split...])]
        #expect(try Self.format(chunks, style: style) == expected, "split at \(split)")
        #expect(try Self.format(chunks, style: style, colors: .default) == coloredExpected, "split at \(split)")
      }
    }
  }

  @Test("fed one byte at a time, output is identical", arguments: documents)
  func byteByByte(_ text: String) throws {
    let chunks = text.utf8.map { [$0] }
    #expect(try Self.format(chunks, style: .pretty) == Self.expected(text, style: .pretty))
    #expect(
      try Self.format(chunks, style: .compact, colors: .default)
        == Self.expected(text, style: .compact, colors: .default))
  }

  @Test("strings pass through byte for byte, escapes kept as sent")
  func stringsVerbatim() throws {
    let text = #"{"k\u0041":"\u00e9\/\ud83d\ude00"}"#
    let out = try Self.format([Array(text.utf8)], style: .compact)
    #expect(String(decoding: out, as: UTF8.self) == text + "\n")
    // Invalid UTF-8 is not this formatter's business: bytes go through unchanged.
    let raw: [UInt8] = [0x22, 0xFF, 0x22]
    #expect(try Self.format([raw], style: .compact) == raw + [0x0A])
  }

  @Test("several texts: each printed and ended with a newline")
  func multipleTexts() throws {
    let input = "{\"a\":1}\n[1,2] 3 \"x\"{\"b\":[]}true null\n-1.5\n"
    let out = try Self.format([Array(input.utf8)], style: .compact)
    #expect(String(decoding: out, as: UTF8.self) == "{\"a\":1}\n[1,2]\n3\n\"x\"\n{\"b\":[]}\ntrue\nnull\n-1.5\n")
    var formatter = JSONStreamFormatter(style: .compact)
    var sink: [UInt8] = []
    try formatter.feed(Array(input.utf8), into: &sink)
    try formatter.finish(into: &sink)
    #expect(formatter.documentCount == 8)
  }

  @Test("a top-level number continues across chunks and ends at finish")
  func numberAcrossChunks() throws {
    let out = try Self.format([Array("12".utf8), Array("34".utf8), Array(".5".utf8)], style: .pretty)
    #expect(out == Array("1234.5\n".utf8))
    #expect(try Self.format([Array("1 2".utf8)], style: .compact) == Array("1\n2\n".utf8))
  }

  @Test("empty input and whitespace only produce nothing")
  func emptyInput() throws {
    #expect(try Self.format([], style: .pretty) == [])
    #expect(try Self.format([Array(" \n\t ".utf8)], style: .pretty) == [])
  }

  @Test("generic feed accepts slices, UTF8 views and raw buffers")
  func genericFeed() throws {
    var formatter = JSONStreamFormatter(style: .compact)
    var out: [UInt8] = []
    let text = #"{"a": [1, 2]}"#
    try formatter.feed(text.utf8.prefix(5), into: &out)
    try formatter.feed(Array(text.utf8)[5...], into: &out)
    try formatter.finish(into: &out)
    #expect(out == Array("{\"a\":[1,2]}\n".utf8))
    var again = JSONStreamFormatter(style: .compact)
    var out2: [UInt8] = []
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBytes { raw in try again.feed(raw, into: &out2) }
    try again.finish(into: &out2)
    #expect(out2 == out)
  }

  @Test("a copied formatter continues independently (value semantics)")
  func copies() throws {
    var first = JSONStreamFormatter(style: .compact)
    var out: [UInt8] = []
    try first.feed(Array("[{\"a\":[1".utf8), into: &out)
    var second = first
    var out1 = out
    var out2 = out
    try first.feed(Array("]}]".utf8), into: &out1)
    try first.finish(into: &out1)
    try second.feed(Array(",2],\"b\":{}}, 3]".utf8), into: &out2)
    try second.finish(into: &out2)
    #expect(String(decoding: out1, as: UTF8.self) == "[{\"a\":[1]}]\n")
    #expect(String(decoding: out2, as: UTF8.self) == "[{\"a\":[1,2],\"b\":{}},3]\n")
  }

  @Test("deep nesting indents like the tree printer")
  func deepIndent() throws {
    let text = String(repeating: "[", count: 300) + "1" + String(repeating: "]", count: 300)
    #expect(try Self.format([Array(text.utf8)], style: .pretty) == Self.expected(text, style: .pretty))
  }

  @Test("format(_:) formats a whole body at once")
  func formatWhole() throws {
    #expect(try JSONStreamFormatter.format(Array(#"{"a":[1]}"#.utf8), style: .compact) == Array("{\"a\":[1]}\n".utf8))
    #expect(throws: JSONSyntaxError.self) { try JSONStreamFormatter.format(Array("[1".utf8)) }
  }

  @Test("finish resets the formatter for another stream")
  func reuse() throws {
    var formatter = JSONStreamFormatter(style: .compact)
    var out: [UInt8] = []
    try formatter.feed(Array("[1]".utf8), into: &out)
    try formatter.finish(into: &out)
    try formatter.feed(Array("{\"a\" : 2}".utf8), into: &out)
    try formatter.finish(into: &out)
    #expect(out == Array("[1]\n{\"a\":2}\n".utf8))
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var text: String
    var offset: Int
    var message: String
    var testDescription: String { text.debugDescription }
  }

  static let malformed: [Malformed] = [
    Malformed(text: #"{"a":1,}"#, offset: 7, message: "unexpected '}', expected a string key in double quotes"),
    Malformed(text: "[1,]", offset: 3, message: "unexpected ']', expected a value"),
    Malformed(text: "[1 2]", offset: 3, message: "unexpected '2', expected ',' or ']'"),
    Malformed(text: #"{"a" 1}"#, offset: 5, message: "expected ':' after the key"),
    Malformed(text: #"{"a":1 "b":2}"#, offset: 7, message: "expected ',' or '}'"),
    Malformed(text: "{a:1}", offset: 1, message: "expected a string key in double quotes or '}'"),
    Malformed(text: "[1}", offset: 2, message: "expected ',' or ']'"),
    Malformed(text: #"{"a":1]"#, offset: 6, message: "expected ',' or '}'"),
    Malformed(text: "]", offset: 0, message: "unexpected ']', expected a value"),
    Malformed(text: "01", offset: 1, message: "leading zeros"),
    Malformed(text: "[-]", offset: 2, message: "a number needs a digit after '-'"),
    Malformed(text: "[1.]", offset: 3, message: "a number needs a digit after '.'"),
    Malformed(text: "[1e]", offset: 3, message: "a number needs a digit in its exponent"),
    Malformed(text: "[1e+]", offset: 4, message: "a number needs a digit in its exponent"),
    Malformed(text: "[1-2]", offset: 2, message: "expected ',' or ']'"),
    Malformed(text: "[tru]", offset: 4, message: "expected a value"),
    Malformed(text: "[nulL]", offset: 4, message: "expected a value"),
    Malformed(text: "truex", offset: 4, message: "separate JSON texts with whitespace"),
    Malformed(text: "1{}", offset: 1, message: "separate JSON texts with whitespace"),
    Malformed(text: "\"a\nb\"", offset: 2, message: "control character byte 0x0A inside a string"),
    Malformed(text: #""a\xb""#, offset: 3, message: "invalid escape '\\x' in a string"),
    Malformed(text: #""\u12G4""#, offset: 5, message: "\\u needs four hex digits"),
    Malformed(text: "+1", offset: 0, message: "unexpected '+', expected a value"),
    Malformed(text: "\u{FEFF}{}", offset: 0, message: "unexpected byte 0xEF, expected a value"),
    // Incomplete at the end: reported by finish().
    Malformed(text: #"{"a":"#, offset: 5, message: "unexpected end of input, expected a value"),
    Malformed(text: #"{"a""#, offset: 4, message: "expected ':'"),
    Malformed(text: "{", offset: 1, message: "expected a string key"),
    Malformed(text: "[1", offset: 2, message: "expected ',' or ']'"),
    Malformed(text: "{\"a\":1", offset: 6, message: "expected ',' or '}'"),
    Malformed(text: #""abc"#, offset: 4, message: "unterminated string"),
    Malformed(text: "tr", offset: 2, message: "inside a literal"),
    Malformed(text: "-", offset: 1, message: "inside a number"),
    Malformed(text: "1.", offset: 2, message: "inside a number"),
  ]

  @Test("malformed input throws with the byte offset, whole or in single bytes", arguments: malformed)
  func malformedInput(_ bad: Malformed) throws {
    for chunks in [[Array(bad.text.utf8)], bad.text.utf8.map { [$0] }] {
      let error = #expect(throws: JSONSyntaxError.self) { try Self.format(chunks, style: .pretty) }
      #expect(error?.offset == bad.offset)
      #expect(error?.message.contains(bad.message) == true, "\(error?.message ?? "no error")")
    }
  }

  @Test("errors report line and column (Unicode scalars) of the stream")
  func errorLocation() throws {
    let text = "[\n  \"é中\", 1,\n  \"😀\" x]"
    let chunks = text.utf8.map { [$0] }
    let error = #expect(throws: JSONSyntaxError.self) { try Self.format(chunks, style: .pretty) }
    #expect(error?.location == SourceLocation(line: 3, column: 7))
    #expect(error?.offset == Array(text.utf8).count - 2)
  }

  @Test("after an error the formatter stays failed")
  func staysFailed() throws {
    var formatter = JSONStreamFormatter(style: .compact)
    var out: [UInt8] = []
    #expect(throws: JSONSyntaxError.self) { try formatter.feed(Array("[1,,".utf8), into: &out) }
    let again = #expect(throws: JSONSyntaxError.self) { try formatter.feed(Array("2]".utf8), into: &out) }
    #expect(again?.offset == 3)
    #expect(throws: JSONSyntaxError.self) { try formatter.finish(into: &out) }
  }

  @Test("nesting beyond maxDepth is rejected; memory stays bounded")
  func depthLimit() throws {
    var formatter = JSONStreamFormatter(style: .compact, maxDepth: 3)
    var out: [UInt8] = []
    try formatter.feed(Array("[[[1]]]".utf8), into: &out)
    let error = #expect(throws: JSONSyntaxError.self) { try formatter.feed(Array("[[[[1]]]]".utf8), into: &out) }
    #expect(error?.offset == 10)
    #expect(error?.message == "nesting deeper than 3 levels")
  }

  @Test("a large document in odd-sized chunks matches the tree printer")
  func largeDocument() throws {
    var items: [JSONValue] = []
    for i in 0..<2000 {
      items.append(
        .object([
          JSONMember("id", .number(String(9_007_199_254_740_993 + i))),
          JSONMember("name", .string("item \(i) é中 \"q\"\n")),
          JSONMember("values", .array([.number("1.10"), .bool(i % 2 == 0), .null, .array([])])),
        ]))
    }
    let value = JSONValue.object([JSONMember("data", .array(items))])
    let input = JSONPrinter(style: .compact).bytes(value)
    var formatter = JSONStreamFormatter(style: .pretty, colors: .default)
    var out: [UInt8] = []
    var start = 0
    var size = 1
    while start < input.count {
      let end = min(input.count, start + size)
      try formatter.feed(input[start..<end], into: &out)
      start = end
      size = size * 7 % 4093 + 1
    }
    try formatter.finish(into: &out)
    #expect(out == JSONPrinter(style: .pretty, colors: .default).bytes(value) + [0x0A])
  }
}
