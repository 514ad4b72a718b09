import Testing

@testable import APXCore

@Suite("JSONWriter")
struct JSONWriterTests {
  let sample: JSONValue = .object([
    JSONMember("id", .number("9007199254740993")),
    JSONMember("name", .string("a \"quoted\" \u{202E} line\n")),
    JSONMember("tags", .array([.string("a"), .number("-1"), .object([])])),
    JSONMember("empty", .object([])),
    JSONMember("none", .array([])),
    JSONMember("nested", .array([.object([JSONMember("x", .array([.array([])]))])])),
    JSONMember("ok", .bool(true)),
  ])

  /// Writes `value` with the writer's calls (scalars through `value(_:)`).
  static func write(_ value: JSONValue, into out: inout JSONWriter) {
    switch value {
    case .object(let members):
      out.beginObject()
      for member in members {
        out.key(member.key)
        write(member.value, into: &out)
      }
      out.endObject()
    case .array(let items):
      out.beginArray()
      for item in items { write(item, into: &out) }
      out.endArray()
    case .string(let s): out.string(s)
    case .number(let text): out.number(text)
    default: out.value(value)
    }
  }

  @Test("lays out a value as JSONPrinter does, pretty and compact")
  func sameAsPrinter() {
    for style in [JSONOutputStyle.pretty, .compact] {
      var out = JSONWriter(style: style)
      Self.write(sample, into: &out)
      #expect(out.bytes == JSONPrinter(style: style).bytes(sample), "\(style)")
    }
  }

  @Test("text written at a depth fits in a document where that value sits")
  func textAtDepth() {
    for style in [JSONOutputStyle.pretty, .compact] {
      var outer = JSONWriter(style: style)
      outer.beginObject()
      outer.member("n", 1)
      outer.key("items")
      outer.beginArray()
      for _ in 0..<2 {
        var inner = JSONWriter(style: style, depth: outer.nesting)
        Self.write(sample, into: &inner)
        outer.text(inner.bytes[...])
      }
      outer.endArray()
      outer.key("whole")
      outer.value(sample)
      outer.endObject()
      let document: JSONValue = .object([
        JSONMember("n", .number("1")), JSONMember("items", .array([sample, sample])), JSONMember("whole", sample),
      ])
      #expect(outer.bytes == JSONPrinter(style: style).bytes(document), "\(style)")
    }
  }

  /// `endLine()` ends the document's last line.
  @Test("a document ends with a new line")
  func endLine() {
    var out = JSONWriter(style: .pretty)
    Self.write(sample, into: &out)
    out.endLine()
    #expect(out.bytes == JSONPrinter(style: .pretty).bytes(sample) + [0x0A])
  }
}
