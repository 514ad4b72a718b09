import APXCore
import Testing

/// One huge event is refused at a documented size instead of growing memory without bound.
@Suite struct SSEParserLimitTests {
  @Test func anEventPastTheLimitStopsTheParser() {
    var parser = SSEParser()
    parser.maxEventSize = 1000
    var events: [SSEEvent] = []
    let line = "data: " + String(repeating: "x", count: 300) + "\n"
    for _ in 0..<5 { parser.feed(Array(line.utf8)) { events.append($0) } }
    parser.feed(Array("\n".utf8)) { events.append($0) }
    #expect(parser.exceededMaxEventSize)
    #expect(events.isEmpty, "the oversized event is not dispatched")
  }

  @Test func aLineWithoutEndPastTheLimitStopsTheParser() {
    var parser = SSEParser()
    parser.maxEventSize = 1000
    for _ in 0..<20 { parser.feed(Array(String(repeating: "y", count: 100).utf8)) { _ in } }
    #expect(parser.exceededMaxEventSize)
    parser.finish()
    #expect(!parser.exceededMaxEventSize)
  }

  @Test func eventsUnderTheLimitPass() {
    var parser = SSEParser()
    parser.maxEventSize = 1000
    var events: [SSEEvent] = []
    parser.feed(Array(("data: " + String(repeating: "z", count: 900) + "\n\n").utf8)) { events.append($0) }
    #expect(events.count == 1)
    #expect(!parser.exceededMaxEventSize)
    #expect(SSEParser.defaultMaxEventSize == 16 * 1_048_576)
  }
}
