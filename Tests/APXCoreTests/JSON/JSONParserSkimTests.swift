import Testing

@testable import APXCore

/// `JSONParser.parse(_:skimming:keeping:)` builds one member of a large object and checks the
/// rest exactly as strictly as `parse`: same verdict, same error position.
@Suite("JSONParser skimming")
struct JSONParserSkimTests {
  static let sample = #"""
    {"api": "x", "endpoints": {
      "a": {"kind": "rest", "path": "/a", "n": [-0.5e+3, 0, 12, true, false, null], "s": "t\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"},
      "b": {"kind": "rest", "deep": [[[{"k": []}]]], "e": {}},
      "c": "plain"
    }, "endpoints2": {"a": 1}}
    """#

  func skim(_ text: String, keeping kept: Set<String>) throws(JSONSyntaxError) -> JSONValue {
    try JSONParser.parse(Array(text.utf8), skimming: "endpoints", keeping: kept)
  }

  @Test func keepsTheNamedMemberAndOnlyNamesTheOthers() throws {
    let full = try JSONParser.parse(Self.sample)
    let skimmed = try skim(Self.sample, keeping: ["b"])
    let members = try #require(skimmed["endpoints"]?.objectMembers)
    #expect(members.map(\.key) == ["a", "b", "c"])
    #expect(members[0].value == .null)
    #expect(members[1].value == full["endpoints"]?["b"])
    #expect(members[2].value == .null)
    // Only the top-level key is skimmed, and everything outside it is built.
    #expect(skimmed["endpoints2"] == full["endpoints2"])
    #expect(skimmed["api"] == .string("x"))
  }

  @Test func keepingEverythingIsAPlainParse() throws {
    #expect(try skim(Self.sample, keeping: ["a", "b", "c"]) == JSONParser.parse(Self.sample))
  }

  @Test func aNestedObjectWithTheSameKeyIsBuilt() throws {
    let text = #"{"x": {"endpoints": {"a": 1}}, "endpoints": [1, 2]}"#
    #expect(try skim(text, keeping: []) == JSONParser.parse(text))
  }

  /// Every one-byte change of the sample (to characters that matter to JSON's grammar)
  /// gets the same verdict and error offset from both parsers.
  @Test func mutationsGetTheSameVerdictAsAFullParse() throws {
    let base = Array(Self.sample.utf8)
    let replacements: [UInt8] = Array(#"{}[]",:\u0"#.utf8) + [0x01, 0x0A, UInt8(ascii: "e"), UInt8(ascii: "-")]
    var failures = 0
    for i in base.indices {
      for r in replacements where r != base[i] {
        var bytes = base
        bytes[i] = r
        compare(bytes, failures: &failures)
        if failures > 5 { return }
      }
      var shorter = base
      shorter.remove(at: i)
      compare(shorter, failures: &failures)
    }
  }

  func compare(_ bytes: [UInt8], failures: inout Int) {
    let text = String(decoding: bytes, as: UTF8.self)
    let full = Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
    let skimmed = Result { () throws(JSONSyntaxError) in
      try JSONParser.parse(bytes, skimming: "endpoints", keeping: ["c"])
    }
    switch (full, skimmed) {
    case (.success, .success): return
    case (.failure(let a), .failure(let b)) where a.offset == b.offset: return
    default:
      failures += 1
      Issue.record("full parse \(full), skimming \(skimmed) for\n\(text)")
    }
  }

  @Test func theDepthLimitHoldsInsideASkimmedMember() {
    let deep =
      String(repeating: "[", count: JSONParser.maxDepth + 5) + String(repeating: "]", count: JSONParser.maxDepth + 5)
    let text = #"{"endpoints": {"a": "# + deep + "}}"
    #expect(throws: JSONSyntaxError.self) { try skim(text, keeping: []) }
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: Never.self) { try skim(#"{"endpoints": {"a": "# + fine + "}}", keeping: []) }
  }
}
