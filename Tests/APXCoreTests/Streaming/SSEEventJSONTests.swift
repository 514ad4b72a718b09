import Testing

@testable import APXCore

/// The JSON object apx prints for each server-sent event.
@Suite struct SSEEventJSONTests {
  @Test func jsonDataIsParsedKeepingOrderAndNumberText() throws {
    let event = SSEEvent(id: "7", event: "progress", data: "{\"z\":1,\"a\":9007199254740993,\"f\":1.10}")
    let expected = JSONValue.object([
      JSONMember("id", .string("7")),
      JSONMember("event", .string("progress")),
      JSONMember(
        "data",
        .object([
          JSONMember("z", .number("1")),
          JSONMember("a", .number("9007199254740993")),
          JSONMember("f", .number("1.10")),
        ])),
    ])
    #expect(event.jsonValue == expected)
  }

  @Test func missingIDIsNull() {
    #expect(SSEEvent(data: "x").jsonValue["id"] == .null)
    #expect(SSEEvent(data: "x").jsonValue["event"] == .string("message"))
  }

  @Test func nonJSONDataStaysAString() {
    for text in ["hello", "", "{\"a\":1} trailing", "{", "'single'", "NaN", "1 2", "line1\nline2"] {
      #expect(SSEEvent(data: text).jsonValue["data"] == .string(text), "\(text.debugDescription)")
    }
  }

  @Test func scalarJSONDataIsParsed() {
    #expect(SSEEvent(data: "42").jsonValue["data"] == .number("42"))
    #expect(SSEEvent(data: "true").jsonValue["data"] == .bool(true))
    #expect(SSEEvent(data: "null").jsonValue["data"] == .null)
    #expect(SSEEvent(data: "\"quoted\"").jsonValue["data"] == .string("quoted"))
    #expect(SSEEvent(data: "[1,\n2]").jsonValue["data"] == .array([.number("1"), .number("2")]))
  }

  @Test func keysAreInPrintOrder() {
    let members = SSEEvent(id: "1", event: "e", data: "d").jsonValue.objectMembers ?? []
    #expect(members.map(\.key) == ["id", "event", "data"])
  }
}
