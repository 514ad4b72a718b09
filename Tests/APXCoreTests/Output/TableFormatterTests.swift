import Testing

@testable import APXCore

@Suite("TableFormatter")
struct TableFormatterTests {
  @Test("an array of objects: union of keys in first-seen order, aligned")
  func arrayOfObjects() throws {
    let value = try JSONParser.parse(
      #"[{"id": 1, "name": "Ada", "tags": ["x", 2]}, {"id": 22, "email": "b@example.com", "name": "Bob"}, {"id": 333, "name": null}]"#
    )
    let expected = """
      id   name  tags  email
      ---  ----  ----  -------------
        1  Ada   x, 2
       22  Bob         b@example.com
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

  @Test("widths count terminal cells (CJK and emoji take two); long cells are cut with an ellipsis")
  func widthAndTruncation() throws {
    let value = JSONValue.array([
      .object([JSONMember("k", .string("é中😀")), JSONMember("v", .string(String(repeating: "a", count: 30)))]),
      .object([JSONMember("k", .string("x"))]),
    ])
    let text = TableFormatter(maxCellWidth: 10).format(value)
    #expect(
      text == """
        k      v
        -----  ----------
        é中😀  aaaaaaaaa…
        x

        """)
  }

  @Test("a cut never splits a wide character, and the column stays aligned")
  func wideTruncation() throws {
    let value = JSONValue.array([
      .object([JSONMember("name", .string("東京都千代田区")), JSONMember("n", .int(1))]),
      .object([JSONMember("name", .string("👨‍👩‍👧 family")), JSONMember("n", .int(2))]),
    ])
    let text = TableFormatter(maxCellWidth: 8).format(value)
    #expect(
      text == """
        name      n
        --------  -
        東京都…   1
        👨‍👩‍👧 fami…  2

        """)
    for line in text.split(separator: "\n") { #expect(TerminalCells.width(line) <= 11, "\(line)") }
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
    #expect(text(.raw, value, style: .compact) == "{\"a\":\"x\"}\n")
    #expect(text(.raw, value) == "{\n  \"a\": \"x\"\n}\n")
    #expect(text(.table, value) == "a\n-\nx\n")
    #expect(OutputFormat(rawValue: "table") == .table)
  }

  @Test("-r prints strings without quotes in every format but table")
  func rawStrings() throws {
    func text(_ format: OutputFormat, _ v: JSONValue) -> String {
      String(decoding: ValueFormatter(format: format, rawStrings: true).bytes(v), as: UTF8.self)
    }
    #expect(text(.json, .string("a \"q\"\nb")) == "a \"q\"\nb\n")
    #expect(text(.ndjson, .string("x")) == "x\n")
    #expect(text(.json, .number("1.10")) == "1.10\n")
    #expect(text(.ndjson, try JSONParser.parse(#"{"a":"x"}"#)) == "{\"a\":\"x\"}\n")
    #expect(text(.table, .string("x")) == "value\n-----\nx\n")
  }

  @Test("a table wider than the terminal narrows its widest columns first")
  func fitsByNarrowing() throws {
    let value = try JSONParser.parse(
      #"[{"id": 1, "title": "A rather long title for a book", "author": "Someone Famous"}]"#)
    let fitted = TableFormatter(maxLineWidth: 30).fitted(value)
    #expect(fitted.hiddenColumns.isEmpty)
    for line in fitted.text.split(separator: "\n") { #expect(TerminalCells.width(line) <= 30, "\(line)") }
    #expect(fitted.text.contains("…"))
    #expect(fitted.text.hasPrefix("id  title"))
  }

  @Test("columns that cannot fit are left out from the right, keys kept")
  func fitsByHidingColumns() throws {
    let value = try JSONParser.parse(#"[{"n": 1, "a": "aaaa", "b": "bbbb", "job_id": "j1", "c": "cccc"}]"#)
    let fitted = TableFormatter(maxLineWidth: 16).fitted(value)
    #expect(fitted.hiddenColumns == ["b", "c"], "\(fitted)")
    #expect(fitted.text.contains("job_id"))
    #expect(fitted.text.hasPrefix("n"))
    for line in fitted.text.split(separator: "\n") { #expect(TerminalCells.width(line) <= 16, "\(line)") }
    // No limit: everything, as before.
    #expect(TableFormatter().fitted(value).hiddenColumns.isEmpty)
  }
}

extension TableFormatterTests {
  @Test("columns kept whole are neither narrowed nor left out; the others make room")
  func keptWhole() throws {
    let value = JSONValue.array([
      .object([
        JSONMember("service", .string("classnotes.v1.ClassNotesAPI")),
        JSONMember("method", .string("StreamProcessingStatus")), JSONMember("shape", .string("server_streaming")),
        JSONMember("request", .string("classnotes.v1.StreamProcessingStatusRequest")),
      ])
    ])
    let fitted = TableFormatter(maxLineWidth: 70, keepWhole: ["service", "method"]).fitted(value)
    #expect(fitted.text.contains("classnotes.v1.ClassNotesAPI  StreamProcessingStatus"), "\(fitted.text)")
    #expect(fitted.hiddenColumns == ["request"], "\(fitted.text)")
    for line in fitted.text.split(separator: "\n") { #expect(TerminalCells.width(line) <= 70, "\(line)") }
    // Without it, the first column is cut like any other.
    #expect(!TableFormatter(maxLineWidth: 70).fitted(value).text.contains("classnotes.v1.ClassNotesAPI"))
  }
}

extension TableFormatterTests {
  @Test("uncapped columns pass the cell cap where there is room, and are narrowed where there is not")
  func uncapped() throws {
    let target = "GET /customers/{customer_id}/orders/by-status/{status}/items"
    let value = JSONValue.array([
      .object([JSONMember("endpoint", .string("shop.items")), JSONMember("target", .string(target))])
    ])
    #expect(TableFormatter(uncapped: ["target"]).fitted(value).text.contains(target))
    #expect(!TableFormatter().fitted(value).text.contains(target), "capped at 48 without it")
    let narrow = TableFormatter(maxLineWidth: 40, uncapped: ["target"]).fitted(value)
    for line in narrow.text.split(separator: "\n") { #expect(TerminalCells.width(line) <= 40, "\(line)") }
    #expect(narrow.text.contains("…"), "\(narrow.text)")
  }
}
