import APXCore
import APXProtobuf
import Testing

/// The codec against Python's protobuf (an independent implementation): the
/// fixtures hold Python's JSON and bytes for the same messages.
@Suite struct GoldenFixtureTests {
  static let golden = FixtureCase.load("golden.json")
  static let inputs = FixtureCase.load("inputs.json")
  static let rejects = FixtureCase.load("rejects.json")

  @Test func fixturesAreLoaded() {
    #expect(Self.golden.count >= 30)
    #expect(Self.inputs.count >= 20)
    #expect(Self.rejects.count >= 15)
  }

  /// decode(Python's bytes) == Python's JSON, number text included.
  @Test(arguments: golden)
  func decodeMatchesPython(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let decoded = try pool.decode(Fixtures.hex(c.string("hex")), as: type)
    let expected = try #require(c["json"])
    #expect(jsonEquivalent(decoded, expected), "ours: \(text(decoded))\npython: \(text(expected))")
    // Same number text as json_format, not merely the same numbers.
    #expect(numberTextDifferences(decoded, expected) == [])
  }

  @Test(arguments: golden)
  func decodeWithDefaultsMatchesPython(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let decoded = try pool.decode(Fixtures.hex(c.string("hex")), as: type, options: DecodeOptions(emitDefaults: true))
    let expected = try #require(c["json_defaults"])
    #expect(jsonEquivalent(decoded, expected), "ours: \(text(decoded))\npython: \(text(expected))")
  }

  @Test(arguments: golden)
  func decodeWithProtoNamesMatchesPython(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let decoded = try pool.decode(
      Fixtures.hex(c.string("hex")), as: type, options: DecodeOptions(useProtoNames: true))
    let expected = try #require(c["json_proto_names"])
    #expect(jsonEquivalent(decoded, expected), "ours: \(text(decoded))\npython: \(text(expected))")
  }

  /// encode(Python's JSON) gives the bytes Python's Parse + SerializeToString
  /// gives, compared in `WireCanonicalForm` (map entries put in one order,
  /// since protobuf leaves their order unspecified and upb writes them in hash
  /// order; everything else byte for byte).
  @Test(arguments: golden)
  func encodeMatchesPython(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let json = try #require(c["json"])
    let ours = try pool.encode(json, as: type, options: EncodeOptions(deterministic: true))
    let python = Fixtures.hex(c.string("reencoded_hex"))
    let canonical = WireCanonicalForm(pool: pool)
    #expect(
      try canonical.canonical(ours[...], as: type) == canonical.canonical(python[...], as: type),
      "ours \(Fixtures.hexString(ours))\npython \(c.string("reencoded_hex"))")
    // And the bytes read back to the same JSON.
    #expect(jsonEquivalent(try pool.decode(ours, as: type), json))
  }

  /// Alternative spellings (proto names, numbers as strings, URL-safe base64,
  /// nulls, offsets...) give the bytes Python's Parse gives.
  @Test(arguments: inputs)
  func acceptsWhatPythonAccepts(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let input = try JSONParser.parse(c.string("input"))
    let ours = try pool.encode(input, as: type, options: EncodeOptions(deterministic: true))
    let python = Fixtures.hex(c.string("hex"))
    let canonical = WireCanonicalForm(pool: pool)
    #expect(
      try canonical.canonical(ours[...], as: type) == canonical.canonical(python[...], as: type),
      "ours \(Fixtures.hexString(ours))\npython \(c.string("hex"))")
  }

  @Test(arguments: rejects)
  func rejectsWhatPythonRejects(_ c: FixtureCase) throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: c.string("type"))
    let input = try JSONParser.parse(c.string("input"))
    let error = #expect(throws: ProtobufError.self) { try pool.encode(input, as: type) }
    #expect(error?.kind == .invalidJSON, "\(String(describing: error))")
  }
}
