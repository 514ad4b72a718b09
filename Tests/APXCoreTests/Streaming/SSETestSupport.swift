@testable import APXCore

/// What a parser produced for a whole stream: events, comments and final state.
struct SSEParseResult: Equatable {
  var events: [SSEEvent]
  var comments: [String]
  var lastEventID: String
  var retry: Int?
  var commentCount: Int
  var discardedAtEnd: Bool
}

/// Feeds `chunks` to `parser` in order, then finishes the stream.
func sseParse(_ chunks: [[UInt8]], parser: inout SSEParser) -> SSEParseResult {
  var events: [SSEEvent] = []
  var comments: [String] = []
  for chunk in chunks {
    parser.feed(chunk, onComment: { comments.append($0) }) { events.append($0) }
  }
  let discarded = parser.finish()
  return SSEParseResult(
    events: events, comments: comments, lastEventID: parser.lastEventID, retry: parser.retry,
    commentCount: parser.commentCount, discardedAtEnd: discarded)
}

/// Parses `chunks` with a fresh parser.
func sseParse(_ chunks: [[UInt8]]) -> SSEParseResult {
  var parser = SSEParser()
  return sseParse(chunks, parser: &parser)
}

/// Parses a whole stream given as text, in one chunk.
func sseParse(_ text: String) -> SSEParseResult {
  sseParse([Array(text.utf8)])
}

/// The events of a stream given as text, in one chunk.
func sseEvents(_ text: String) -> [SSEEvent] {
  sseParse(text).events
}
