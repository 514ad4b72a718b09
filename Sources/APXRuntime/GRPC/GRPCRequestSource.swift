import APXCore
import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where the request messages of a call come from. Unary and
/// server-streaming calls send one message (`-d` or `{}`); client and
/// bidirectional streams send a JSON array (`-d '[...]'`), the documents of
/// a file (`-d @file`: an array or NDJSON), or NDJSON read from stdin as it
/// arrives (`-d @-`, or no `-d`), so a bidirectional call can answer each
/// line before the next is typed.
enum GRPCRequestSource {
  /// The single message of a unary or server-streaming call, before `name=value` fields are set.
  static func single(_ data: RequestBuilder.DataBody?) throws -> JSONValue? {
    let bytes: [UInt8]
    switch data {
    case nil: return nil
    case .json(let b): bytes = b
    case .file(let path): bytes = try FileBytes.read(path)
    case .stdin: bytes = try StandardInput.readAll()
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      throw APXError(
        .usage, "the request (-d) is not valid JSON: \(error.message) at \(error.location)",
        hint: "give the request message as one JSON object, e.g. -d '{\"id\": \"les_0001\"}'")
    }
    guard case .object = value else {
      throw APXError(
        .usage, "the request (-d) must be a JSON object, got \(value.typeName)",
        hint: "this method takes one request message; a JSON array is for client-streaming methods")
    }
    return value
  }

  /// The messages of a client- or bidirectional-streaming call, produced as they become available.
  static func stream(_ data: RequestBuilder.DataBody?) throws -> AsyncThrowingStream<JSONValue, any Error> {
    switch data {
    case .json(let bytes):
      return finished(try documents(in: bytes, origin: "-d"))
    case .file(let path):
      return finished(try documents(in: try FileBytes.read(path), origin: path))
    case .stdin, nil:
      return stdinLines()
    }
  }

  private static func finished(_ values: [JSONValue]) -> AsyncThrowingStream<JSONValue, any Error> {
    let (stream, continuation) = AsyncThrowingStream<JSONValue, any Error>.makeStream()
    for v in values { continuation.yield(v) }
    continuation.finish()
    return stream
  }

  /// Every message in `bytes`: a JSON array's elements, one object, or NDJSON documents.
  static func documents(in bytes: [UInt8], origin: String) throws(APXError) -> [JSONValue] {
    if let whole = try? JSONParser.parse(bytes) {
      return whole.arrayValue ?? [whole]
    }
    var splitter = JSONDocumentSplitter(origin: origin)
    var out: [JSONValue] = []
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      out += try splitter.feed(Array(line))
    }
    try splitter.finish()
    return out
  }

  /// NDJSON from stdin, read on a Dispatch thread so waiting for the next
  /// line never blocks Swift's cooperative pool.
  private static func stdinLines() -> AsyncThrowingStream<JSONValue, any Error> {
    let (stream, continuation) = AsyncThrowingStream<JSONValue, any Error>.makeStream()
    DispatchQueue.global().async {
      var splitter = JSONDocumentSplitter(origin: "stdin")
      do {
        // Not `readLine`: it holds a line of any length (stdin from /dev/zero grew by 300 MB a second).
        try StandardInput.forEachLine(limit: JSONDocumentSplitter.maxDocumentBytes) { line in
          for value in try splitter.feed(Array(line)) { continuation.yield(value) }
        }
        try splitter.finish()
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    return stream
  }
}

/// Cuts a sequence of lines into JSON documents: one per line (NDJSON), or
/// several lines when a document is pretty-printed; a document that is a
/// JSON array gives its elements.
///
/// A document is parsed only once its brackets close at the end of a line (tracked as the lines
/// come, strings and escapes included): parsing the whole pending text after every line took
/// 8.7 s for a 39 KB pretty-printed message (`jq . msg.json | apx call ...`) and minutes for 169 KB.
struct JSONDocumentSplitter {
  /// The longest document held while waiting for its end (64 MiB, as for files read whole).
  static let maxDocumentBytes = FileBytes.defaultLimit

  let origin: String
  private var pending: [UInt8] = []
  private var lineNumber = 0
  private var startLine = 0
  /// Open `[` and `{` in `pending`, outside strings.
  private var depth = 0
  private var inString = false
  private var escaped = false

  init(origin: String) { self.origin = origin }

  /// Adds one line; returns the documents it completes.
  mutating func feed(_ line: [UInt8]) throws(APXError) -> [JSONValue] {
    lineNumber += 1
    let blank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    if pending.isEmpty {
      if blank { return [] }
      startLine = lineNumber
    }
    guard pending.count + line.count < Self.maxDocumentBytes else {
      throw APXError(
        .usage,
        "request messages from \(origin): the document starting on line \(startLine) is longer than "
          + "\(Self.maxDocumentBytes / 1_048_576) MiB",
        hint: "send one JSON object per line (NDJSON), or a JSON array of messages")
    }
    pending += line
    pending.append(0x0A)
    track(line)
    guard depth <= 0, !inString else { return [] }
    let value: JSONValue
    do {
      value = try JSONParser.parse(pending)
    } catch {
      throw invalid(error.message)
    }
    pending.removeAll(keepingCapacity: true)
    depth = 0
    return value.arrayValue ?? [value]
  }

  /// Follows the brackets of `line` outside strings (a string cannot span lines in valid JSON,
  /// so one left open makes the document wait for `finish()`, which reports it).
  private mutating func track(_ line: [UInt8]) {
    for byte in line {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
  }

  /// Fails when the input ended inside a document.
  func finish() throws(APXError) {
    guard !pending.isEmpty else { return }
    var message = "incomplete"
    if case .failure(let error) = Result(catching: { () throws(JSONSyntaxError) -> JSONValue in
      try JSONParser.parse(pending)
    }) {
      message = error.message
    }
    throw invalid(message)
  }

  private func invalid(_ message: String) -> APXError {
    APXError(
      .usage,
      "request messages from \(origin): the document starting on line \(startLine) is not valid JSON (\(message))",
      hint: "send one JSON object per line (NDJSON), or a JSON array of messages")
  }
}
