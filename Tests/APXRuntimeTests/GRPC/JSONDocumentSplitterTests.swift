import APXCore
import Testing

@testable import APXRuntime

/// Request messages cut from lines: brackets inside strings do not end a document, a document
/// is checked as soon as its brackets close, and one that never ends is bounded.
@Suite struct JSONDocumentSplitterTests {
  static func feed(_ lines: [String]) throws -> [JSONValue] {
    var splitter = JSONDocumentSplitter(origin: "stdin")
    var out: [JSONValue] = []
    for line in lines { out += try splitter.feed(Array(line.utf8)) }
    try splitter.finish()
    return out
  }

  @Test func bracketsAndEscapedQuotesInStringsDoNotEndADocument() throws {
    let values = try Self.feed([#"{"a": "}]\"{","#, #" "b": ["x]"]}"#, #"{"c": 1}"#])
    #expect(values.count == 2)
    #expect(values.first?["a"] == .string("}]\"{"))
  }

  /// Closed brackets followed by something else fail at that line, not only at the end of input.
  @Test func garbageAfterADocumentFailsAtItsLine() {
    var splitter = JSONDocumentSplitter(origin: "stdin")
    #expect(throws: APXError.self) { try splitter.feed(Array(#"{"a": 1} junk"#.utf8)) }
  }

  /// A document that never closes stops at 64 MiB instead of growing with its input.
  @Test func aDocumentPastTheLimitIsAUsageError() throws {
    var splitter = JSONDocumentSplitter(origin: "stdin")
    _ = try splitter.feed(Array("[".utf8))
    let line = [UInt8](repeating: UInt8(ascii: "1"), count: 1_048_576)
    let error = #expect(throws: APXError.self) {
      for _ in 0..<65 { _ = try splitter.feed(line) }
    }
    #expect(error?.status == .usage)
    #expect(error?.message.contains("is longer than 64 MiB") == true, "\(error?.message ?? "")")
  }
}
