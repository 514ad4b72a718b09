import Testing

@testable import APXCore

/// The field rules of the WHATWG event-stream processing model.
@Suite struct SSEParserFieldTests {
  @Test func singleDataEventDefaultsToMessageWithoutID() {
    #expect(sseEvents("data: hello\n\n") == [SSEEvent(id: nil, event: "message", data: "hello", retry: nil)])
  }

  @Test func multipleDataLinesAreJoinedWithLF() {
    // The specification's first example.
    #expect(sseEvents("data: YHOO\ndata: +2\ndata: 10\n\n").map(\.data) == ["YHOO\n+2\n10"])
  }

  @Test func onlyTheLastTrailingNewlineIsRemoved() {
    #expect(sseEvents("data: a\ndata:\n\n").map(\.data) == ["a\n"])
    #expect(sseEvents("data\ndata\n\n").map(\.data) == ["\n"])
  }

  @Test func specificationExampleWithEmptyDataFields() {
    // `data` alone dispatches an empty string; two make "\n"; the final
    // block has no blank line after it, so it is never dispatched.
    let result = sseParse("data\n\ndata\ndata\n\ndata:")
    #expect(result.events.map(\.data) == ["", "\n"])
    #expect(result.discardedAtEnd)
  }

  @Test func oneSpaceAfterTheColonIsStrippedOnce() {
    #expect(sseEvents("data:test\n\ndata: test\n\n").map(\.data) == ["test", "test"])
    #expect(sseEvents("data:  two spaces\n\n").map(\.data) == [" two spaces"])
    #expect(sseEvents("data:\ttab\n\n").map(\.data) == ["\ttab"])
    #expect(sseEvents("data: \n\n").map(\.data) == [""])
  }

  @Test func onlyTheFirstColonSeparatesNameFromValue() {
    #expect(sseEvents("data: a:b: c\n\n").map(\.data) == ["a:b: c"])
    #expect(sseEvents("data::\n\n").map(\.data) == [":"])
  }

  @Test func aLineWithoutColonIsAFieldWithEmptyValue() {
    #expect(sseEvents("data\n\n") == [SSEEvent(data: "")])
    // `event` with an empty value falls back to "message".
    #expect(sseEvents("event: x\nevent\ndata: d\n\n").map(\.event) == ["message"])
    // `id` alone resets the last event ID.
    let result = sseParse("id: 7\ndata: a\n\nid\ndata: b\n\n")
    #expect(result.events.map(\.id) == ["7", nil])
    #expect(result.lastEventID == "")
  }

  @Test func eventTypeAppliesToOneEventOnly() {
    let events = sseEvents("event: add\ndata: 1\n\ndata: 2\n\nevent: remove\nevent: update\ndata: 3\n\n")
    #expect(events.map(\.event) == ["add", "message", "update"])
  }

  @Test func eventTypeOfAnUndispatchedBlockDoesNotLeak() {
    // A block without data resets the event type buffer too.
    #expect(sseEvents("event: ping\n\ndata: x\n\n").map(\.event) == ["message"])
  }

  @Test func fieldNamesAreCaseSensitiveAndUnknownOnesIgnored() {
    #expect(sseEvents("Data: x\nDATA: y\n\n").isEmpty)
    #expect(sseEvents("foo: bar\ndata: x\nbaz\n\n").map(\.data) == ["x"])
    #expect(sseEvents(" data: x\n\n").isEmpty)  // leading space is part of the name
  }

  @Test func lastEventIDPersistsAcrossEvents() {
    let result = sseParse("id: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n")
    #expect(result.events.map(\.id) == ["1", "1", "2"])
    #expect(result.lastEventID == "2")
  }

  @Test func emptyIDResetsTheLastEventID() {
    let result = sseParse("id: 1\ndata: a\n\nid:\ndata: b\n\ndata: c\n\n")
    #expect(result.events.map(\.id) == ["1", nil, nil])
    #expect(result.lastEventID == "")
  }

  @Test func idContainingNULIsIgnored() {
    let result = sseParse("id: 1\ndata: a\n\nid: 2\u{0}3\ndata: b\n\n")
    #expect(result.events.map(\.id) == ["1", "1"])
    #expect(result.lastEventID == "1")
    #expect(sseEvents("id: \u{0}\ndata: x\n\n").map(\.id) == [nil])
  }

  @Test func idKeepsSpacesAfterTheFirstAndNonASCIIText() {
    #expect(sseEvents("id:  padded \ndata: x\n\n").map(\.id) == [" padded "])
    #expect(sseEvents("id: évènement-😀\ndata: x\n\n").map(\.id) == ["évènement-😀"])
  }

  @Test func blockWithoutDataIsNotDispatchedButCommitsItsID() {
    let result = sseParse("id: 42\n\n")
    #expect(result.events.isEmpty)
    #expect(result.lastEventID == "42")
    #expect(!result.discardedAtEnd)
    // The committed ID is carried by the next event.
    #expect(sseEvents("id: 42\n\ndata: x\n\n").map(\.id) == ["42"])
    // An empty `event`/`retry`-only block is not dispatched either.
    #expect(sseEvents("event: x\nretry: 10\n\n").isEmpty)
  }

  @Test func idIsOnlyCommittedByABlankLine() {
    // The stream ends before the blank line: the ID buffer is discarded.
    let result = sseParse("id: 1\ndata: a\n\nid: 2\ndata: b\n")
    #expect(result.events.map(\.id) == ["1"])
    #expect(result.lastEventID == "1")
    #expect(result.discardedAtEnd)
  }

  @Test func retryAcceptsASCIIDigitsOnly() {
    let result = sseParse("retry: 3000\ndata: a\n\ndata: b\n\n")
    #expect(result.events.map(\.retry) == [3000, nil])
    #expect(result.retry == 3000)
    for bad in [
      "retry: 1a", "retry: -1", "retry: 1.5", "retry:", "retry", "retry: +5", "retry:  100", "retry: 1 ", "retry: ١٢",
    ] {
      let parsed = sseParse("retry: 7\n\n\(bad)\ndata: x\n\n")
      #expect(parsed.retry == 7, "\(bad) must be ignored")
      #expect(parsed.events.map(\.retry) == [nil], "\(bad) must be ignored")
    }
    #expect(sseParse("retry: 0\n\n").retry == 0)
    #expect(sseParse("retry: 000250\n\n").retry == 250)
  }

  @Test func retryTakesEffectWithoutABlankLineAndSaturates() {
    #expect(sseParse("retry: 1500\n").retry == 1500)
    #expect(sseParse("retry: 99999999999999999999999999\n\n").retry == Int.max)
  }

  @Test func lastRetryInABlockWins() {
    let result = sseParse("retry: 10\nretry: 20\ndata: x\n\n")
    #expect(result.events.map(\.retry) == [20])
    #expect(result.retry == 20)
  }

  @Test func commentsAreCountedAndReportedButNotDispatched() {
    let result = sseParse(": hello\n:\n::x\n:  two\ndata: a\n: inside an event\n\n")
    #expect(result.events == [SSEEvent(data: "a")])
    #expect(result.comments == ["hello", "", ":x", " two", "inside an event"])
    #expect(result.commentCount == 5)
  }

  @Test func keepAliveOnlyStreamProducesNoEvents() {
    let result = sseParse(": ping\n\n: ping\n\n")
    #expect(result.events.isEmpty)
    #expect(result.commentCount == 2)
    #expect(!result.discardedAtEnd)
  }

  @Test func specificationCommentAndIDExample() {
    let stream = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
    let result = sseParse(stream)
    #expect(
      result.events == [
        SSEEvent(id: "1", data: "first event"),
        SSEEvent(id: nil, data: "second event"),
        SSEEvent(id: nil, data: " third event"),
      ])
    #expect(result.commentCount == 1)
  }

  @Test func invalidUTF8IsReplacedNotFatal() {
    let bytes: [UInt8] = Array("data: a".utf8) + [0xFF, 0xC3] + Array("\nevent: e".utf8) + [0x80] + Array("\n\n".utf8)
    let events = sseParse([bytes]).events
    #expect(events == [SSEEvent(event: "e\u{FFFD}", data: "a\u{FFFD}\u{FFFD}")])
  }

  @Test func nulInDataIsKept() {
    #expect(sseEvents("data: a\u{0}b\n\n").map(\.data) == ["a\u{0}b"])
  }

  @Test func parserCanResumeFromAStoredLastEventID() {
    var parser = SSEParser(lastEventID: "99")
    let result = sseParse([Array("data: x\n\n".utf8)], parser: &parser)
    #expect(result.events.map(\.id) == ["99"])
    #expect(result.lastEventID == "99")
  }
}
