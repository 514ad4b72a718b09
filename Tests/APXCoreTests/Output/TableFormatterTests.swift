import Testing

@testable import APXCore

@Suite("TableFormatter")
struct TableFormatterTests {
  @Test("an array of objects: union of keys in first-seen order, aligned")
  func arrayOfObjects() throws {
    let value = try JSONParser.parse(
      #"[{"id": 1, "name": "Ada", "tags": ["x"]}, {"id": 22, "email": "b@example.com", "name": "Bob"}, {"id": 333, "name": null}]"#
    )
    let expected = """
      id   name  tags   email
      ---  ----  -----  -------------
        1  Ada   ["x"]
       22  Bob          b@example.com
      333  null

      """
    #expect(TableFormatter().format(value) == expected)
  }

  @Test("one object is one row")
  func singleObject() throws {
    let value = try JSONParser.parse(#"{"status": "complete", "progress": 1.0, "ok": true}"#)
    #expect(
      TableFormatter().format(value) == """
        status    progress  ok
        --------  --------  ----
        complete       1.0  true

        """)
  }

  @Test("widths count Unicode scalars; long cells are cut with an ellipsis")
  func widthAndTruncation() throws {
    let value = JSONValue.array([
      .object([JSONMember("k", .string("é中😀")), JSONMember("v", .string(String(repeating: "a", count: 30)))]),
      .object([JSONMember("k", .string("x"))]),
    ])
    let text = TableFormatter(maxCellWidth: 10).format(value)
    #expect(
      text == """
        k    v
        ---  ----------
        é中😀  aaaaaaaaa…
        x

        """)
  }

  @Test("non-object elements go in a value column; control characters are escaped")
  func mixed() throws {
    let value = try JSONParser.parse(#"["a\nb", 2, {"x": 1}]"#)
    #expect(
      TableFormatter().format(value) == """
        value  x
        -----  -
        a\\nb
        2
               1

        """)
  }

  @Test("an empty array prints nothing; a scalar prints one cell")
  func edges() {
    #expect(TableFormatter().format(.array([])) == "")
    #expect(TableFormatter().format(.string("hi")) == "value\n-----\nhi\n")
  }

  @Test("NDJSON writes one compact line per value")
  func ndjson() throws {
    var out: [UInt8] = []
    NDJSON.append(try JSONParser.parse(#"{ "a" : [1, 2] }"#), to: &out)
    NDJSON.append(.string("x"), to: &out)
    #expect(String(decoding: out, as: UTF8.self) == "{\"a\":[1,2]}\n\"x\"\n")
    #expect(NDJSON.line(.null) == Array("null\n".utf8))
    #expect(String(decoding: NDJSON.line(.bool(true), colors: .default), as: UTF8.self) == "\u{1B}[33mtrue\u{1B}[0m\n")
  }

  @Test("ValueFormatter writes each output format")
  func valueFormatter() throws {
    let value = try JSONParser.parse(#"{"a": "x"}"#)
    func text(_ format: OutputFormat, _ v: JSONValue, style: JSONOutputStyle = .pretty) -> String {
      String(decoding: ValueFormatter(format: format, style: style).bytes(v), as: UTF8.self)
    }
    #expect(text(.json, value) == "{\n  \"a\": \"x\"\n}\n")
    #expect(text(.json, value, style: .compact) == "{\"a\":\"x\"}\n")
    #expect(text(.ndjson, value) == "{\"a\":\"x\"}\n")
    #expect(text(.raw, .string("plain\ttext")) == "plain\ttext\n")
    #expect(text(.raw, value) == "{\"a\":\"x\"}\n")
    #expect(text(.table, value) == "a\n-\nx\n")
    #expect(OutputFormat(rawValue: "table") == .table)
  }
}
