import APXCore
import Testing

/// A body that is not JSON comes back exactly as received; formatted output and raw bytes never mix.
@Suite struct JSONBodyRelayTests {
  /// Feeds `body` in chunks of `size`; returns the output and the first non-`.formatted` step.
  static func relay(_ body: String, chunk size: Int, holdLimit: Int = 1 << 20) -> ([UInt8], JSONBodyRelay.Step) {
    var relay = JSONBodyRelay(formatter: JSONStreamFormatter(style: .pretty), holdLimit: holdLimit)
    var out: [UInt8] = []
    let bytes = Array(body.utf8)
    var verdict = JSONBodyRelay.Step.formatted
    var start = 0
    while start < bytes.count {
      let end = min(start + size, bytes.count)
      let step = bytes[start..<end].withUnsafeBytes { relay.feed($0, into: &out) }
      if case .raw = step {
        out += bytes[end...]
        return (out, step)
      }
      if case .broken = step { return (out, step) }
      start = end
    }
    verdict = relay.finish(into: &out)
    return (out, verdict)
  }

  @Test(
    arguments: [
      "<!doctype html><html><body>Bad gateway</body></html>", "{not json", "{\"a\": [1, 2", "{\"a\": \"unterminated",
      "  ",
    ], [1, 3, 4096])
  func notJSONComesBackByteForByte(_ body: String, _ chunk: Int) {
    let (out, step) = Self.relay(body, chunk: chunk)
    if body.trimmingCharacters(in: .whitespaces).isEmpty {
      #expect(step == .formatted)
      return
    }
    guard case .raw = step else {
      Issue.record("expected .raw, got \(step)")
      return
    }
    #expect(out == Array(body.utf8))
  }

  /// A complete text followed by garbage: raw when found in one chunk, else the formatted text then a stop.
  @Test(arguments: ["[1, 2, 3] trailing", "{\"a\":1}{"], [1, 4096])
  func garbageAfterATextIsNeverMixedIn(_ body: String, _ chunk: Int) {
    let (out, step) = Self.relay(body, chunk: chunk)
    switch step {
    case .raw: #expect(out == Array(body.utf8))
    case .broken: #expect(!String(decoding: out, as: UTF8.self).contains("trailing"))
    case .formatted: Issue.record("\(body) passed as JSON")
    }
  }

  @Test func validJSONIsFormatted() {
    let (out, step) = Self.relay("{\"a\":[1,2]}", chunk: 2)
    #expect(step == .formatted)
    #expect(String(decoding: out, as: UTF8.self) == "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n")
  }

  @Test func ndjsonIsReleasedLineByLine() {
    var relay = JSONBodyRelay(formatter: JSONStreamFormatter(style: .compact))
    var out: [UInt8] = []
    let step = Array("{\"n\":1}\n{\"n\"".utf8).withUnsafeBytes { relay.feed($0, into: &out) }
    #expect(step == .formatted)
    #expect(String(decoding: out, as: UTF8.self).hasPrefix("{\"n\":1}\n"), "the first complete text shows at once")
  }

  @Test func aBreakAfterReleaseStopsTheOutput() {
    let big = "[" + Array(repeating: "1", count: 100).joined(separator: ",") + ", oops]"
    let (out, step) = Self.relay(big, chunk: 16, holdLimit: 64)
    guard case .broken(let error) = step else {
      Issue.record("expected .broken, got \(step)")
      return
    }
    #expect(error.offset == big.utf8.count - 5)
    #expect(!String(decoding: out, as: UTF8.self).contains("oops"), "no raw bytes after formatted ones")
  }
}
