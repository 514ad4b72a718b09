import Testing

@testable import APXCore

/// Cross-checks the streaming formatter against the tree parser on
/// deterministic random mutations of valid documents: both must accept or
/// reject the same inputs, and accepted output must parse back to the same value.
@Suite("JSONStreamFormatter cross-check")
struct JSONStreamFormatterFuzzTests {
  static let seeds: [String] = [
    #"{"a":[1,-2.5e+3,0,true,false,null],"b":{"c":"d\"e\\f\u00e9\n","":[]},"é":{}}"#,
    #"[{"id":9007199254740993,"tags":["x","y"],"n":null},{"id":2,"v":-0.0}]"#,
    #" { "spaced" : [ 1 , 2 , { "k" : "v" } ] } "#,
  ]

  /// Bytes that exercise every branch of both parsers.
  static let alphabet: [UInt8] = Array(#"{}[]:,"\\/ -+.0123456789eEtrufalsn\u00é"#.utf8) + [0x0A, 0x09, 0x01, 0xFF]

  @Test("stream formatter and parser agree on random mutations")
  func agree() throws {
    var rng = SeededRandom(seed: 42)  // deterministic, so failures reproduce
    var checked = 0
    for seed in Self.seeds {
      let base = Array(seed.utf8)
      for _ in 0..<1500 {
        var bytes = base
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
          guard !bytes.isEmpty else { break }
          let at = Int.random(in: 0..<bytes.count, using: &rng)
          switch Int.random(in: 0..<4, using: &rng) {
          case 0: bytes.remove(at: at)
          case 1: bytes.insert(Self.alphabet.randomElement(using: &rng) ?? 0x20, at: at)
          case 2: bytes[at] = Self.alphabet.randomElement(using: &rng) ?? 0x20
          default: bytes = Array(bytes[..<at])
          }
        }
        let parsed: JSONValue?
        var parseMessage = ""
        do { parsed = try JSONParser.parse(bytes) } catch {
          parsed = nil
          parseMessage = error.message
        }
        // The stream formatter also accepts several texts in a row and empty input.
        if parseMessage.contains("after the end of the JSON value") { continue }
        if bytes.allSatisfy({ [0x20, 0x0A, 0x09, 0x0D].contains($0) }) { continue }
        let split = Int.random(in: 0...bytes.count, using: &rng)
        var formatter = JSONStreamFormatter(style: .pretty)
        var out: [UInt8] = []
        var streamError: JSONSyntaxError?
        do {
          try formatter.feed(bytes[..<split], into: &out)
          try formatter.feed(bytes[split...], into: &out)
          try formatter.finish(into: &out)
        } catch {
          streamError = error
        }
        let input = String(decoding: bytes, as: UTF8.self).debugDescription
        if let parsed {
          #expect(streamError == nil, "stream rejected \(input): \(streamError?.message ?? "")")
          if streamError == nil {
            #expect(try JSONParser.parse(out) == parsed, "\(input)")
          }
        } else {
          #expect(streamError != nil, "stream accepted \(input), parser said \(parseMessage)")
        }
        checked += 1
      }
    }
    #expect(checked > 1000)
  }
}
