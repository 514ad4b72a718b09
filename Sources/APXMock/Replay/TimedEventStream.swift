public import APXCore

/// An event stream's recorded bytes cut into what a replay sends at once: each piece ends with
/// an event (a block with a `data` field and the blank line after it), and is due when that
/// event arrived in the recording. Blocks without data (`retry:`, comments) go with the next
/// event; what follows the last event goes with it.
public enum TimedEventStream {
  /// One piece of the stream and when it is due: milliseconds after the answer's head.
  public struct Piece: Sendable, Hashable {
    /// Milliseconds after the answer's head.
    public var due: Double
    /// The bytes, as recorded.
    public var bytes: [UInt8]
  }

  /// `body` in pieces, the n-th event due at `times[n]` (the last time for events past the end
  /// of `times`; 0 without times).
  public static func pieces(_ body: [UInt8], times: [Double]) -> [Piece] {
    var pieces: [Piece] = []
    var start = 0
    var lineStart = 0
    var blockHasData = false
    var i = 0
    func due() -> Double {
      times.isEmpty ? 0 : times[min(pieces.count, times.count - 1)]
    }
    while i < body.count {
      let byte = body[i]
      guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
        i += 1
        continue
      }
      let line = body[lineStart..<i]
      // CR LF is one line end.
      if byte == UInt8(ascii: "\r"), i + 1 < body.count, body[i + 1] == UInt8(ascii: "\n") { i += 1 }
      i += 1
      lineStart = i
      if line.isEmpty {
        if blockHasData {
          pieces.append(Piece(due: due(), bytes: Array(body[start..<i])))
          start = i
        }
        blockHasData = false
      } else if line.starts(with: "data".utf8),
        line.count == 4 || line[line.startIndex + 4] == UInt8(ascii: ":")
      {
        blockHasData = true
      }
    }
    if start < body.count {
      if pieces.isEmpty || blockHasData {
        pieces.append(Piece(due: due(), bytes: Array(body[start...])))
      } else {
        pieces[pieces.count - 1].bytes += body[start...]
      }
    }
    return pieces
  }
}
