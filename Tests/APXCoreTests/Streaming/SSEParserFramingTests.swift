import Testing

@testable import APXCore

/// Line endings, the BOM, chunk boundaries and the end of the stream.
@Suite struct SSEParserFramingTests {
  @Test(arguments: ["\n", "\r", "\r\n"])
  func everyLineEndingWorks(_ eol: String) {
    let stream = "event: e\(eol)data: a\(eol)data: b\(eol)\(eol)data: c\(eol)\(eol)"
    #expect(sseEvents(stream) == [SSEEvent(event: "e", data: "a\nb"), SSEEvent(data: "c")])
  }

  @Test func mixedLineEndingsInOneStream() {
    let events = sseEvents("data: a\r\ndata: b\rdata: c\n\r\ndata: d\r\r")
    #expect(events.map(\.data) == ["a\nb\nc", "d"])
  }

  @Test func crCrIsTwoLineEndsButCrLfIsOne() {
    #expect(sseEvents("data: a\r\r").count == 1)  // CR CR = end of line + blank line
    #expect(sseEvents("data: a\r\n").isEmpty)  // CRLF = one line end, no blank line
    #expect(sseEvents("data: a\n\r").count == 1)  // LF then CR = two line ends
  }

  @Test func crAtTheEndOfAChunkAndLFAtTheStartOfTheNextIsOneLineEnd() {
    let chunks = [Array("data: a\r".utf8), Array("\ndata: b\r".utf8), Array("\n\r".utf8), Array("\n".utf8)]
    let result = sseParse(chunks)
    #expect(result.events.map(\.data) == ["a\nb"])
    #expect(!result.discardedAtEnd)
  }

  @Test func crThenEmptyChunksThenLFIsStillOneLineEnd() {
    let chunks: [[UInt8]] = [Array("data: a\r".utf8), [], [], Array("\n\r\n".utf8)]
    #expect(sseParse(chunks).events.map(\.data) == ["a"])
  }

  @Test func crAtChunkEndFollowedByOtherTextIsALineEnd() {
    let chunks = [Array("data: a\r".utf8), Array("\r".utf8)]
    #expect(sseParse(chunks).events.map(\.data) == ["a"])
  }

  @Test func leadingBOMIsStrippedOnce() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(sseParse([bom + Array("data: x\n\n".utf8)]).events.map(\.data) == ["x"])
    // A second BOM is part of the first field name, which is then unknown.
    #expect(sseParse([bom + bom + Array("data: x\n\ndata: y\n\n".utf8)]).events.map(\.data) == ["y"])
    // A BOM later in the stream is not stripped.
    #expect(sseParse([Array("data: x\n\n".utf8) + bom + Array("data: y\n\n".utf8)]).events.map(\.data) == ["x"])
    // A BOM inside a value is kept.
    #expect(sseParse([Array("data: ".utf8) + bom + Array("z\n\n".utf8)]).events.map(\.data) == ["\u{FEFF}z"])
  }

  @Test func bomSplitAcrossChunksIsStillStripped() {
    let chunks: [[UInt8]] = [[0xEF], [], [0xBB], [0xBF, 0x64], Array("ata: x\n\n".utf8)]
    #expect(sseParse(chunks).events.map(\.data) == ["x"])
  }

  @Test func partialBOMPrefixIsKeptAsText() {
    // EF BB followed by "data" is not a BOM: the bytes start the field name.
    let bytes: [UInt8] = [0xEF, 0xBB] + Array("data: x\n\ndata: y\n\n".utf8)
    #expect(sseParse([bytes]).events.map(\.data) == ["y"])
    #expect(sseParse([[0xEF], [0xBB], Array("data: x\n\ndata: y\n\n".utf8)]).events.map(\.data) == ["y"])
    // A lone EF followed by a blank line: an unknown field, then nothing.
    #expect(sseParse([[0xEF], Array("\n\ndata: y\n\n".utf8)]).events.map(\.data) == ["y"])
  }

  @Test func streamStartingWithALineEndIsNotABOMProblem() {
    #expect(sseEvents("\n\r\ndata: x\n\n").map(\.data) == ["x"])
  }

  @Test func halfReceivedEventAtEndOfStreamIsNotDispatched() {
    for tail in ["data: x", "data: x\n", "data: x\r", "data: x\r\n", "event: e\ndata: x\ndata: y\n"] {
      let result = sseParse("data: first\n\n" + tail)
      #expect(result.events.map(\.data) == ["first"], "tail \(tail.debugDescription)")
      #expect(result.discardedAtEnd, "tail \(tail.debugDescription)")
    }
  }

  @Test func finishReportsNothingDiscardedAfterACompleteStream() {
    #expect(!sseParse("data: x\n\n").discardedAtEnd)
    #expect(!sseParse("").discardedAtEnd)
    #expect(!sseParse(": comment\n").discardedAtEnd)
  }

  @Test func finishStartsANewStreamKeepingIDAndRetry() {
    var parser = SSEParser()
    var events: [SSEEvent] = []
    parser.feed(Array("retry: 500\nid: 5\ndata: a\n\nid: 6\ndata: half".utf8)) { events.append($0) }
    let discarded = parser.finish()
    #expect(discarded)
    #expect(parser.lastEventID == "5")
    // The reconnected stream may start with a BOM and a LF: the CR state is reset.
    parser.feed([0xEF, 0xBB, 0xBF] + Array("data: b\n\n".utf8)) { events.append($0) }
    #expect(events == [SSEEvent(id: "5", data: "a", retry: 500), SSEEvent(id: "5", data: "b")])
    #expect(parser.retry == 500)
  }

  @Test func crAtEndOfOneStreamDoesNotSwallowLFOfTheNext() {
    var parser = SSEParser()
    var events: [SSEEvent] = []
    parser.feed(Array("data: a\n\r".utf8)) { events.append($0) }
    parser.finish()
    parser.feed(Array("\ndata: b\n\n".utf8)) { events.append($0) }
    #expect(events.map(\.data) == ["a", "b"])
  }

  @Test func feedAcceptsSlicesRawBuffersAndNonContiguousSequences() {
    let text = "id: 1\ndata: x\n\n"
    let expected = [SSEEvent(id: "1", data: "x")]

    var fromSlice: [SSEEvent] = []
    var parser = SSEParser()
    let padded = Array("junk".utf8) + Array(text.utf8)
    parser.feed(padded[4...]) { fromSlice.append($0) }
    #expect(fromSlice == expected)

    var fromRaw: [SSEEvent] = []
    parser = SSEParser()
    Array(text.utf8).withUnsafeBytes { raw in parser.feed(raw) { fromRaw.append($0) } }
    #expect(fromRaw == expected)

    var fromSequence: [SSEEvent] = []
    parser = SSEParser()
    parser.feed(text.utf8.lazy.map { $0 }) { fromSequence.append($0) }
    #expect(fromSequence == expected)

    var fromUTF8View: [SSEEvent] = []
    parser = SSEParser()
    parser.feed(text.utf8) { fromUTF8View.append($0) }
    #expect(fromUTF8View == expected)
  }

  @Test func longLinesAcrossManyChunks() {
    let payload = String(repeating: "0123456789", count: 10_000)
    // Over the parser's retained buffer size: its storage is released and reallocated.
    let bytes = Array("data: \(payload)\n\ndata: \(payload)\ndata: small\n\ndata: after\n\n".utf8)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let end = min(start + 97, bytes.count)
      chunks.append(Array(bytes[start..<end]))
      start = end
    }
    #expect(
      sseParse(chunks).events == [
        SSEEvent(data: payload), SSEEvent(data: payload + "\nsmall"), SSEEvent(data: "after"),
      ])
  }
}
