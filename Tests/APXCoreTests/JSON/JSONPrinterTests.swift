import Testing

@testable import APXCore

@Suite("JSONPrinter")
struct JSONPrinterTests {
  let sample: JSONValue = .object([
    JSONMember("id", .number("9007199254740993")),
    JSONMember("price", .number("1.10")),
    JSONMember("tags", .array([.string("a"), .string("b")])),
    JSONMember("empty", .object([])),
    JSONMember("none", .array([])),
    JSONMember("ok", .bool(true)),
    JSONMember("missing", .null),
    JSONMember("nested", .array([.object([JSONMember("x", .number("-0"))])])),
  ])

  @Test("compact output has no whitespace")
  func compact() {
    #expect(
      JSONPrinter(style: .compact).string(sample)
        == #"{"id":9007199254740993,"price":1.10,"tags":["a","b"],"empty":{},"none":[],"ok":true,"missing":null,"nested":[{"x":-0}]}"#
    )
  }

  @Test("pretty output uses two spaces and \"key\": value, like jq")
  func pretty() {
    let expected = """
      {
        "id": 9007199254740993,
        "price": 1.10,
        "tags": [
          "a",
          "b"
        ],
        "empty": {},
        "none": [],
        "ok": true,
        "missing": null,
        "nested": [
          {
            "x": -0
          }
        ]
      }
      """
    #expect(JSONPrinter(style: .pretty).string(sample) == expected)
    #expect(sample.prettyJSON == expected)
  }

  @Test("scalars at the top level")
  func scalars() {
    let printer = JSONPrinter(style: .pretty)
    #expect(printer.string(.null) == "null")
    #expect(printer.string(.bool(false)) == "false")
    #expect(printer.string(.number("1e400")) == "1e400")
    #expect(printer.string(.string("hi")) == "\"hi\"")
  }

  @Test("strings are escaped per RFC 8259, non-ASCII kept as UTF-8")
  func escaping() throws {
    let value = JSONValue.string("q\"b\\s/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}é中😀")
    let text = JSONPrinter(style: .compact).string(value)
    #expect(text == #""q\"b\\s/\b\f\n\r\t\u0000\u001f\u007fé中😀""#)
    // And it parses back to the same string.
    #expect(try JSONParser.parse(text) == value)
  }

  @Test("keys are escaped too")
  func keyEscaping() {
    let value = JSONValue.object([JSONMember("a\"b\n", .null)])
    #expect(value.compactJSON == #"{"a\"b\n":null}"#)
  }

  @Test("colour codes wrap each token; none when colours are off")
  func colors() {
    let colors = JSONColors.default
    let value = JSONValue.object([
      JSONMember("k", .string("v")), JSONMember("n", .number("1")), JSONMember("b", .bool(true)),
      JSONMember("z", .null),
    ])
    let text = JSONPrinter(style: .compact, colors: colors).string(value)
    let esc = "\u{1B}["
    let reset = "\u{1B}[0m"
    #expect(
      text
        == "{\(esc)34;1m\"k\"\(reset):\(esc)32m\"v\"\(reset),\(esc)34;1m\"n\"\(reset):\(esc)36m1\(reset),"
        + "\(esc)34;1m\"b\"\(reset):\(esc)33mtrue\(reset),\(esc)34;1m\"z\"\(reset):\(esc)90mnull\(reset)}")
    #expect(!JSONPrinter(style: .pretty, colors: nil).string(value).contains("\u{1B}"))
    #expect(stripANSI(JSONPrinter(style: .pretty, colors: colors).string(sample)) == sample.prettyJSON)
  }

  @Test("punctuation can be coloured; empty codes write nothing")
  func punctuationColor() {
    var colors = JSONColors(key: "", string: "", number: "", bool: "", null: "", punctuation: "1")
    #expect(
      JSONPrinter(style: .compact, colors: colors).string(.array([.number("1")]))
        == "\u{1B}[1m[\u{1B}[0m1\u{1B}[1m]\u{1B}[0m")
    colors.punctuation = ""
    #expect(JSONPrinter(style: .compact, colors: colors).string(.array([.number("1")])) == "[1]")
  }

  @Test("deep nesting indents correctly beyond the spaces buffer")
  func deepIndent() throws {
    var value = JSONValue.number("1")
    for _ in 0..<200 { value = .array([value]) }
    let text = JSONPrinter(style: .pretty).string(value)
    #expect(text.split(separator: "\n")[200] == Substring(String(repeating: " ", count: 400) + "1"))
    #expect(try JSONParser.parse(text) == value)
  }
}

/// Removes `ESC[...m` sequences.
func stripANSI(_ text: String) -> String {
  var out = ""
  var skipping = false
  for scalar in text.unicodeScalars {
    if scalar == "\u{1B}" {
      skipping = true
      continue
    }
    if skipping {
      if scalar == "m" { skipping = false }
      continue
    }
    out.unicodeScalars.append(scalar)
  }
  return out
}

@Suite("JSONColors")
struct JSONColorsTests {
  @Test("JQ_COLORS fields map onto the scheme; invalid values are ignored")
  func jqColors() {
    let colors = JSONColors(jqColors: "1;30:0;31:0;32:0;33:0;34:1;35:1;36:0;37")
    #expect(
      colors == JSONColors(key: "0;37", string: "0;34", number: "0;33", bool: "0;32", null: "1;30", punctuation: "1;35")
    )
    let partial = JSONColors(jqColors: "0;31")
    #expect(partial?.null == "0;31")
    #expect(partial?.string == JSONColors.default.string)
    #expect(JSONColors(jqColors: "red:blue") == nil)
    #expect(JSONColors(jqColors: "1:2:3:4:5:6:7:8:9") == nil)
  }
}
