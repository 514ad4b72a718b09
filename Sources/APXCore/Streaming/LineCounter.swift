/// Counts the lines of an NDJSON / JSON Lines body as it arrives, to stop it after a
/// number of them (`--max-events`). Blank lines do not count: printers skip them too.
public struct LineCounter: Sendable {
  /// How many lines to let through.
  public let limit: Int
  /// Complete non-blank lines seen so far.
  public private(set) var count = 0
  /// The line in progress holds something other than spaces, tabs and CR.
  private var lineHasContent = false

  public init(limit: Int) { self.limit = limit }

  /// Reads the next piece of the body. Returns how many of its bytes to keep when the
  /// line that reaches `limit` ends in it (through that line's newline), or nil to keep it all.
  public mutating func end(in bytes: UnsafeRawBufferPointer) -> Int? {
    for index in bytes.indices {
      switch bytes[index] {
      case UInt8(ascii: "\n"):
        guard lineHasContent else { continue }
        lineHasContent = false
        count += 1
        if count >= limit { return index + 1 }
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        continue
      default:
        lineHasContent = true
      }
    }
    return nil
  }
}
