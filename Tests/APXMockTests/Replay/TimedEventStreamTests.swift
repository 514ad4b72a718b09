import APXCore
import APXMock
import Testing

@Suite("Timed event streams")
struct TimedEventStreamTests {
  @Test func eachPieceEndsWithAnEventAndIsDueWhenItArrived() {
    let body = Array("retry: 100\n\nid: 1\ndata: a\n\n: keep-alive\r\n\r\nevent: x\r\ndata: b\r\n\r\ndata\n\ntail".utf8)
    let pieces = TimedEventStream.pieces(body, times: [5, 12.5])
    #expect(
      pieces.map { String(decoding: $0.bytes, as: UTF8.self) } == [
        "retry: 100\n\nid: 1\ndata: a\n\n", ": keep-alive\r\n\r\nevent: x\r\ndata: b\r\n\r\n", "data\n\ntail",
      ])
    // An event past the recorded times is due with the last one.
    #expect(pieces.map(\.due) == [5, 12.5, 12.5])
    #expect(pieces.flatMap(\.bytes) == body)
  }

  @Test func aStreamWithoutTimesOrEventsIsOnePiece() {
    #expect(TimedEventStream.pieces(Array(": only a comment\n\n".utf8), times: []).map(\.due) == [0])
    #expect(TimedEventStream.pieces([], times: [1]).isEmpty)
  }

  @Test func theReaderTakesTheRecordedTimes() throws {
    let entry = """
      {"log": {"entries": [{"request": {"method": "GET", "url": "http://h/events"},
        "response": {"status": 200, "headers": [], "content": {"mimeType": "text/event-stream", "text": "data: 1\\n\\n"}},
        "_apx": {"events": [{"time": 1.5, "id": "1"}, {"time": 40}]}}]}}
      """
    let exchanges = try HARReader.exchanges(Array(entry.utf8), name: "t.har")
    #expect(exchanges.first?.eventTimes == [1.5, 40])
  }
}
