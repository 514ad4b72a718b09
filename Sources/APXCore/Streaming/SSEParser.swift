/// An incremental parser for `text/event-stream` bodies, following the WHATWG
/// HTML "Interpreting an event stream" processing model.
///
/// Feed it byte chunks as they arrive; it calls `emit` for each complete event.
/// It keeps only the current partial line and the current event's buffers,
/// works on raw bytes, and creates `String`s only for dispatched values (field
/// names, line ends and colons are ASCII, so decoding each value on its own
/// gives the same text as decoding the whole stream, invalid UTF-8 included).
///
/// Rules implemented: CR, LF and CRLF line ends (also a CRLF split across two
/// chunks); one leading UTF-8 BOM stripped; `:` comment lines (counted and
/// passed to `onComment`); a line without a colon is a field with an empty
/// value; one space after the colon is stripped; `data` lines joined with LF;
/// `event` defaults to `"message"`; `id` values containing NUL are ignored and
/// an empty `id` resets the last event ID; `retry` accepts ASCII digits only;
/// a block with no `data` is not dispatched but still commits its `id`; a
/// half-received event at the end of the stream is discarded by `finish()`.
///
/// One parser serves one logical event source: call `finish()` when a
/// connection ends and keep feeding the same parser after reconnecting, so
/// `lastEventID` (for the `Last-Event-ID` header) and `retry` carry over.
public struct SSEParser: Sendable {
  /// The last event ID committed by a blank line ("" when none or reset).
  /// Send it as `Last-Event-ID` when reconnecting.
  public private(set) var lastEventID: String = ""
  /// The reconnection time in milliseconds most recently sent with `retry:`.
  public private(set) var retry: Int?
  /// How many comment lines (`:` keep-alives) were seen, over all streams.
  public private(set) var commentCount: Int = 0
  /// The largest line or event (its `data` joined) kept, in bytes.
  public var maxEventSize = SSEParser.defaultMaxEventSize
  /// Set when a line or an event grew past `maxEventSize`: the parser then
  /// ignores input until `finish()`, and the caller should stop the stream.
  public private(set) var exceededMaxEventSize = false

  /// 16 MiB: one event this size takes about three times as much memory
  /// while it is parsed and decoded as JSON.
  public static let defaultMaxEventSize = 16 * 1_048_576

  // Per-stream state, reset by `finish()`.
  private var bomMatched = 0
  private var bomDone = false
  /// A CR ended the previous chunk: an LF starting the next one is part of it.
  private var skipLF = false
  /// The current line when it spans chunks (empty otherwise).
  private var partialLine: [UInt8] = []
  /// Data lines, each followed by LF (so "empty" means no `data` field yet).
  private var dataBuffer: [UInt8] = []
  private var eventTypeBuffer: [UInt8] = []
  /// The `id` buffer; committed to `lastEventID` when a blank line arrives.
  private var idBuffer: String = ""
  private var blockRetry: Int?

  /// Makes a parser with no last event ID and no reconnection time.
  public init() {}

  /// Makes a parser that resumes after `lastEventID` (e.g. a stored cursor).
  public init(lastEventID: String) {
    self.lastEventID = lastEventID
    self.idBuffer = lastEventID
  }

  /// Parses the next chunk of the stream, calling `emit` for each event it
  /// completes and `onComment` with the text of each comment line (after the
  /// colon and one optional space).
  public mutating func feed(
    _ chunk: UnsafeBufferPointer<UInt8>,
    onComment: (String) -> Void = { _ in },
    emit: (SSEEvent) -> Void
  ) {
    guard let base = chunk.baseAddress, !chunk.isEmpty, !exceededMaxEventSize else { return }
    let count = chunk.count
    var i = 0

    if !bomDone {
      // The BOM may itself be split across chunks.
      while !bomDone, i < count {
        if base[i] == Self.bom[bomMatched] {
          bomMatched += 1
          i += 1
          if bomMatched == Self.bom.count { bomDone = true }
        } else {
          partialLine.append(contentsOf: Self.bom[0..<bomMatched])
          bomDone = true
        }
      }
      if i == count { return }
    }

    if skipLF {
      skipLF = false
      if base[i] == Self.lf { i += 1 }
    }

    var lineStart = i
    while i < count {
      let byte = base[i]
      // Every line-end byte is below 0x0E: one compare skips most bytes.
      if byte > Self.cr || (byte != Self.lf && byte != Self.cr) {
        i += 1
        continue
      }
      let segment = UnsafeBufferPointer(start: base + lineStart, count: i - lineStart)
      if partialLine.isEmpty {
        processLine(segment, onComment: onComment, emit: emit)
      } else {
        partialLine.append(contentsOf: segment)
        processPartialLine(onComment: onComment, emit: emit)
      }
      if exceededMaxEventSize { return }
      i += 1
      if byte == Self.cr {
        if i < count {
          if base[i] == Self.lf { i += 1 }
        } else {
          skipLF = true
        }
      }
      lineStart = i
    }
    if lineStart < count {
      partialLine.append(contentsOf: UnsafeBufferPointer(start: base + lineStart, count: count - lineStart))
      if partialLine.count > maxEventSize { overflow() }
    }
  }

  /// Drops what is buffered once a line or event is too large.
  private mutating func overflow() {
    exceededMaxEventSize = true
    Self.clear(&partialLine)
    Self.clear(&dataBuffer)
  }

  /// Parses the next chunk of raw bytes (e.g. a network buffer).
  public mutating func feed(
    _ chunk: UnsafeRawBufferPointer,
    onComment: (String) -> Void = { _ in },
    emit: (SSEEvent) -> Void
  ) {
    chunk.withMemoryRebound(to: UInt8.self) { bytes in
      feed(bytes, onComment: onComment, emit: emit)
    }
  }

  /// Parses the next chunk from any byte collection (`[UInt8]`, `ArraySlice`,
  /// a NIO `ByteBufferView`); contiguous storage is read in place.
  @inlinable
  public mutating func feed<Bytes: Sequence<UInt8>>(
    _ chunk: Bytes,
    onComment: (String) -> Void = { _ in },
    emit: (SSEEvent) -> Void
  ) {
    let handled: Void? = chunk.withContiguousStorageIfAvailable { bytes in
      feed(bytes, onComment: onComment, emit: emit)
    }
    if handled == nil {
      let copy = Array(chunk)
      copy.withUnsafeBufferPointer { bytes in
        feed(bytes, onComment: onComment, emit: emit)
      }
    }
  }

  /// Ends the current stream: a half-received line or event is discarded
  /// (never dispatched), as the specification requires. `lastEventID`,
  /// `retry` and `commentCount` are kept, and the next `feed` starts a new
  /// stream (a leading BOM is stripped again).
  ///
  /// - Returns: true when something was discarded (the stream ended in the
  ///   middle of an event), so callers can report a truncated stream.
  @discardableResult
  public mutating func finish() -> Bool {
    let discarded =
      !partialLine.isEmpty || !dataBuffer.isEmpty || !eventTypeBuffer.isEmpty
      || idBuffer != lastEventID || blockRetry != nil || (bomMatched > 0 && !bomDone)
    Self.clear(&partialLine)
    Self.clear(&dataBuffer)
    exceededMaxEventSize = false
    eventTypeBuffer.removeAll(keepingCapacity: true)
    idBuffer = lastEventID
    blockRetry = nil
    bomMatched = 0
    bomDone = false
    skipLF = false
    return discarded
  }

  // MARK: - Lines and fields

  private static let lf: UInt8 = 0x0A
  private static let cr: UInt8 = 0x0D
  private static let colon: UInt8 = 0x3A
  private static let space: UInt8 = 0x20
  private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Processes the line accumulated across chunks. It is swapped out of `self`
  /// while read so that `processLine` may mutate `self`, and swapped back to
  /// keep its capacity.
  private mutating func processPartialLine(onComment: (String) -> Void, emit: (SSEEvent) -> Void) {
    var line: [UInt8] = []
    swap(&line, &partialLine)
    line.withUnsafeBufferPointer { processLine($0, onComment: onComment, emit: emit) }
    Self.clear(&line)
    swap(&line, &partialLine)
  }

  private mutating func processLine(
    _ line: UnsafeBufferPointer<UInt8>, onComment: (String) -> Void, emit: (SSEEvent) -> Void
  ) {
    if line.isEmpty {
      dispatch(emit)
      return
    }
    if line[0] == Self.colon {
      commentCount += 1
      onComment(String(decoding: Self.value(of: line, colonAt: 0), as: UTF8.self))
      return
    }
    var colonIndex = line.count
    for index in line.indices where line[index] == Self.colon {
      colonIndex = index
      break
    }
    let name = UnsafeBufferPointer(rebasing: line[0..<colonIndex])
    let value = Self.value(of: line, colonAt: colonIndex)
    switch Field(name) {
    case .data:
      dataBuffer.append(contentsOf: value)
      dataBuffer.append(Self.lf)
      if dataBuffer.count > maxEventSize { overflow() }
    case .event:
      eventTypeBuffer.removeAll(keepingCapacity: true)
      eventTypeBuffer.append(contentsOf: value)
    case .id:
      if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
    case .retry:
      if let milliseconds = Self.parseDigits(value) {
        retry = milliseconds
        blockRetry = milliseconds
      }
    case .other:
      break
    }
  }

  /// The field value: after the colon, without one leading space.
  private static func value(of line: UnsafeBufferPointer<UInt8>, colonAt colon: Int) -> UnsafeBufferPointer<UInt8> {
    var start = colon + 1
    if start >= line.count { return UnsafeBufferPointer(rebasing: line[line.count...]) }
    if line[start] == space { start += 1 }
    return UnsafeBufferPointer(rebasing: line[start...])
  }

  /// A base-ten integer made of ASCII digits only (saturating at `Int.max`),
  /// or nil for anything else, the empty value included.
  private static func parseDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    if bytes.isEmpty { return nil }
    var result = 0
    for byte in bytes {
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      let (times10, o1) = result.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times10.addingReportingOverflow(Int(byte - 0x30))
      result = (o1 || o2) ? Int.max : sum
    }
    return result
  }

  /// A blank line: commit the ID, then dispatch unless the data buffer is empty.
  private mutating func dispatch(_ emit: (SSEEvent) -> Void) {
    lastEventID = idBuffer
    let retryInBlock = blockRetry
    blockRetry = nil
    if dataBuffer.isEmpty {
      eventTypeBuffer.removeAll(keepingCapacity: true)
      return
    }
    dataBuffer.removeLast()  // the LF appended after the last data line
    let event = SSEEvent(
      id: lastEventID.isEmpty ? nil : lastEventID,
      event: eventTypeBuffer.isEmpty ? "message" : String(decoding: eventTypeBuffer, as: UTF8.self),
      data: String(decoding: dataBuffer, as: UTF8.self),
      retry: retryInBlock
    )
    Self.clear(&dataBuffer)
    eventTypeBuffer.removeAll(keepingCapacity: true)
    emit(event)
  }

  /// Empties a buffer, keeping its storage for the next line or event unless
  /// one huge value made it large: that memory is given back.
  private static func clear(_ buffer: inout [UInt8]) {
    if buffer.capacity > Self.retainedCapacity {
      buffer = []
    } else {
      buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Buffers up to this size are reused across lines and events.
  private static let retainedCapacity = 64 * 1024

  /// The four field names the specification acts on.
  private enum Field {
    case data, event, id, retry, other

    init(_ name: UnsafeBufferPointer<UInt8>) {
      switch name.count {
      case 4 where name[0] == 0x64 && name[1] == 0x61 && name[2] == 0x74 && name[3] == 0x61:
        self = .data  // "data"
      case 5 where name[0] == 0x65 && name[1] == 0x76 && name[2] == 0x65 && name[3] == 0x6E && name[4] == 0x74:
        self = .event  // "event"
      case 2 where name[0] == 0x69 && name[1] == 0x64:
        self = .id  // "id"
      case 5 where name[0] == 0x72 && name[1] == 0x65 && name[2] == 0x74 && name[3] == 0x72 && name[4] == 0x79:
        self = .retry  // "retry"
      default:
        self = .other
      }
    }
  }
}
