#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A streaming `multipart/form-data` reader (RFC 7578) that hands the bytes of one
/// named part to a sink as they arrive, holding at most one chunk plus a
/// delimiter's length in memory.
struct MultipartScanner: Sendable {
  /// Why a body is not valid multipart.
  enum Failure: Error, Equatable {
    case malformed(String)
  }

  private enum State: Sendable {
    case preamble
    case afterDelimiter
    case headers
    case body(wanted: Bool)
    case done
  }

  /// Longest part header block accepted.
  private static let maxHeaderBytes = 16 * 1024

  /// The form field whose content goes to the sink.
  let partName: String
  /// True once a part named `partName` started.
  private(set) var foundPart = false
  private var state = State.preamble
  private var pending: [UInt8] = []
  private let firstDelimiter: [UInt8]
  private let delimiter: [UInt8]

  /// A reader for a body whose Content-Type carries `boundary`.
  init(boundary: String, partName: String) {
    self.partName = partName
    self.firstDelimiter = Array("--\(boundary)".utf8)
    self.delimiter = Array("\r\n--\(boundary)".utf8)
  }

  /// The `boundary` parameter of a `multipart/form-data` Content-Type value.
  static func boundary(fromContentType value: String) -> String? {
    for parameter in value.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "boundary" else { continue }
      var boundary = pair[1].trimmingSpaces()
      if boundary.count >= 2, boundary.hasPrefix("\""), boundary.hasSuffix("\"") {
        boundary = String(boundary.dropFirst().dropLast())
      }
      return boundary.isEmpty ? nil : boundary
    }
    return nil
  }

  /// Scans the next chunk; bytes of the wanted part go to `sink`.
  mutating func consume(_ chunk: [UInt8], sink: (UnsafeRawBufferPointer) -> Void) throws {
    try chunk.withUnsafeBytes { try consume($0, sink: sink) }
  }

  /// Scans the next chunk, read in place; bytes of the wanted part go to `sink`.
  mutating func consume(_ chunk: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) -> Void) throws {
    pending.append(contentsOf: chunk)
    var start = 0
    defer { pending.removeFirst(start) }
    while true {
      switch state {
      case .preamble:
        guard let found = Self.find(firstDelimiter, in: pending, from: start) else {
          start = max(start, pending.count - firstDelimiter.count + 1)
          return
        }
        start = found + firstDelimiter.count
        state = .afterDelimiter
      case .afterDelimiter:
        guard pending.count - start >= 2 else { return }
        let next = (pending[start], pending[start + 1])
        if next == (UInt8(ascii: "-"), UInt8(ascii: "-")) {
          state = .done
        } else if next == (UInt8(ascii: "\r"), UInt8(ascii: "\n")) {
          state = .headers
        } else {
          throw Failure.malformed("a multipart boundary must be followed by CRLF or '--'")
        }
        start += 2
      case .headers:
        guard let end = Self.find(Array("\r\n\r\n".utf8), in: pending, from: start) else {
          if pending.count - start > Self.maxHeaderBytes {
            throw Failure.malformed("multipart part headers exceed \(Self.maxHeaderBytes) bytes")
          }
          return
        }
        let text = String(decoding: pending[start..<end], as: UTF8.self)
        let wanted = Self.fieldName(inHeaders: text) == partName
        if wanted { foundPart = true }
        start = end + 4
        state = .body(wanted: wanted)
      case .body(let wanted):
        if let found = Self.find(delimiter, in: pending, from: start) {
          if wanted { Self.emit(pending, start..<found, to: sink) }
          start = found + delimiter.count
          state = .afterDelimiter
        } else {
          // Keep a possible partial delimiter at the end for the next chunk.
          let safeEnd = max(start, pending.count - delimiter.count + 1)
          if wanted && safeEnd > start { Self.emit(pending, start..<safeEnd, to: sink) }
          start = safeEnd
          return
        }
      case .done:
        start = pending.count
        return
      }
    }
  }

  /// Checks that the closing delimiter was seen.
  func finish() throws {
    guard case .done = state else {
      throw Failure.malformed("the multipart body ended before its closing boundary")
    }
  }

  /// The `name` parameter of a part's `Content-Disposition: form-data` header.
  static func fieldName(inHeaders headers: String) -> String? {
    for line in headers.split(separator: "\r\n") {
      let pair = line.split(separator: ":", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "content-disposition" else {
        continue
      }
      for parameter in pair[1].split(separator: ";").dropFirst() {
        let item = parameter.split(separator: "=", maxSplits: 1)
        guard item.count == 2, item[0].trimmingSpaces().lowercased() == "name" else { continue }
        var name = item[1].trimmingSpaces()
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
          name = String(name.dropFirst().dropLast())
        }
        return name
      }
    }
    return nil
  }

  private static func emit(_ bytes: [UInt8], _ range: Range<Int>, to sink: (UnsafeRawBufferPointer) -> Void) {
    bytes.withUnsafeBytes { sink(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// First index at or after `from` where `needle` occurs in `haystack`.
  ///
  /// memchr for the first byte, then memcmp: a plain byte loop was the bottleneck of
  /// large uploads in debug builds (and memmem is not visible through Glibc).
  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    guard let first = needle.first, from >= 0, haystack.count - from >= needle.count else { return nil }
    return haystack.withUnsafeBytes { hay in
      needle.withUnsafeBytes { pattern in
        guard let base = hay.baseAddress, let patternBase = pattern.baseAddress else { return nil }
        let lastStart = hay.count - pattern.count
        var index = from
        while index <= lastStart {
          guard let hit = memchr(base + index, Int32(first), lastStart - index + 1) else { return nil }
          let position = base.distance(to: UnsafeRawPointer(hit))
          if memcmp(base + position, patternBase, pattern.count) == 0 { return position }
          index = position + 1
        }
        return nil
      }
    }
  }
}

extension Substring {
  /// This text without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var slice = self
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}
