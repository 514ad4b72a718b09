import Foundation
import PropertyBased
import Testing

@testable import APXDemoServer

/// Mutation tests of the multipart reader behind the demo's upload route: any body, cut into any chunks, is read or refused with a
/// message; never a trap, a hang, or more content bytes than the body holds.
@Suite(.timeLimit(.minutes(5)))
struct MultipartFuzzTests {
  static let count = ProcessInfo.processInfo.environment["APX_FUZZ_COUNT"].flatMap(Int.init) ?? 150
  static let body = Array(
    ("--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"csv\"; filename=\"b.csv\"\r\nContent-Type: text/csv\r\n\r\n"
      + "title,author\r\nDune,Herbert\r\n--XyZ--\r\n").utf8)

  @Test func anyBodyInAnyChunksIsReadOrRefused() async {
    let input = zip(Gen.int(in: 0...Int.max).array(of: 0...6), Gen.int(in: 1...40))
    await propertyCheck(count: Self.count, input: input) { edits, chunk in
      var bytes = Self.body
      for edit in edits {
        let at = (edit >> 3) % (bytes.count + 1)
        switch edit & 3 {
        case 0 where !bytes.isEmpty: bytes.remove(at: min(at, bytes.count - 1))
        case 1: bytes.insert(contentsOf: Array("\r\n--XyZ".utf8), at: at)
        case 2: bytes = Array(bytes.prefix(at))
        default: bytes.insert(UInt8(truncatingIfNeeded: edit >> 24), at: at)
        }
      }
      var scanner = MultipartScanner(boundary: "XyZ", partName: "csv")
      var content = 0
      do {
        var start = 0
        while start < bytes.count {
          try scanner.consume(Array(bytes[start..<min(start + chunk, bytes.count)])) { content += $0.count }
          start += chunk
        }
        try scanner.finish()
        if edits.isEmpty { #expect(content == "title,author\r\nDune,Herbert".utf8.count) }
      } catch let failure as MultipartScanner.Failure {
        guard case .malformed(let message) = failure else { return }
        #expect(!message.isEmpty)
      }
      #expect(content <= bytes.count)
    }
  }
}
