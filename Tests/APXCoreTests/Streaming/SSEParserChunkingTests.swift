import Testing

@testable import APXCore

/// However a stream is cut into chunks, the parser must produce the same result.
@Suite struct SSEParserChunkingTests {
  /// A stream exercising every rule: BOM, all line endings, comments, ids
  /// (set, NUL, reset), retry (valid and not), event types, multi-line and
  /// empty data, multi-byte UTF-8, and a half event at the end.
  static let stream: [UInt8] =
    [0xEF, 0xBB, 0xBF]
    + Array(
      (": keep-alive\r\n"
        + "retry: 2500\r\n"
        + "id: 1\n"
        + "event: progress\r"
        + "data: {\"progress\": 0.5}\r\n"
        + "data:second line\n"
        + "\r\n"
        + "data\r"
        + "\r"
        + "id: bad\u{0}id\n"
        + "retry: 12x\n"
        + "event\n"
        + "data: née 😀 ü\n"
        + "\n"
        + "id\n"
        + "\n"
        + ":\n"
        + "event: complete\n"
        + "data:  spaced\n"
        + "data:\n"
        + "unknown: field\n"
        + "\r\r"
        + "id: 9\n"
        + "data: never dispatched\n").utf8)

  static let expected = [
    SSEEvent(id: "1", event: "progress", data: "{\"progress\": 0.5}\nsecond line", retry: 2500),
    SSEEvent(id: "1", event: "message", data: ""),
    SSEEvent(id: "1", event: "message", data: "née 😀 ü"),
    SSEEvent(id: nil, event: "complete", data: " spaced\n"),
  ]

  @Test func wholeStreamInOneChunk() {
    let result = sseParse([Self.stream])
    #expect(result.events == Self.expected)
    #expect(result.lastEventID == "")
    #expect(result.retry == 2500)
    #expect(result.comments == ["keep-alive", ""])
    #expect(result.discardedAtEnd)
  }

  @Test func splitAtEveryBytePosition() {
    let reference = sseParse([Self.stream])
    for cut in 0...Self.stream.count {
      let chunks = [Array(Self.stream[..<cut]), Array(Self.stream[cut...])]
      let result = sseParse(chunks)
      #expect(result == reference, "split at byte \(cut)")
      if result != reference { break }
    }
  }

  @Test func splitAtEveryPairOfBytePositions() {
    let reference = sseParse([Self.stream])
    let count = Self.stream.count
    var failures = 0
    for first in 0...count {
      for second in first...count {
        let chunks = [
          Array(Self.stream[..<first]), Array(Self.stream[first..<second]), Array(Self.stream[second...]),
        ]
        if sseParse(chunks) != reference {
          failures += 1
          Issue.record("split at bytes \(first) and \(second)")
        }
        if failures > 3 { return }
      }
    }
  }

  @Test func byteByByte() {
    let chunks = Self.stream.map { [$0] }
    #expect(sseParse(chunks) == sseParse([Self.stream]))
  }

  @Test func byteByByteWithEmptyChunksBetween() {
    let chunks = Self.stream.flatMap { [[], [$0], []] }
    #expect(sseParse(chunks) == sseParse([Self.stream]))
  }

  @Test func randomChunkSizesFromSeededGenerator() {
    let reference = sseParse([Self.stream])
    var random = SeededRandom(seed: 0x5EED)
    for round in 0..<500 {
      var chunks: [[UInt8]] = []
      var start = 0
      while start < Self.stream.count {
        let size = Int(random.next() % 9)  // 0...8, empty chunks included
        let end = min(start + size, Self.stream.count)
        chunks.append(Array(Self.stream[start..<end]))
        start = end
      }
      let result = sseParse(chunks)
      #expect(result == reference, "round \(round)")
      if result != reference { break }
    }
  }

  @Test func manyEventsInLargeChunks() {
    var text = ""
    for index in 0..<1000 { text += "id: \(index)\nevent: tick\ndata: {\"n\":\(index)}\n\n" }
    let bytes = Array(text.utf8)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let end = min(start + 4093, bytes.count)
      chunks.append(Array(bytes[start..<end]))
      start = end
    }
    let events = sseParse(chunks).events
    #expect(events.count == 1000)
    #expect(events.last == SSEEvent(id: "999", event: "tick", data: "{\"n\":999}"))
    #expect(events.map(\.id) == (0..<1000).map { String($0) })
  }
}
