import APXCore
import APXProtobuf
import Testing

/// Bad JSON gets a precise `.invalidJSON` error with the JSON path; bad bytes get an
/// error, never a crash.
@Suite struct CodecErrorTests {
  func encodeError(_ json: String, as typeName: String = "apxtest.v1.Everything") throws -> ProtobufError? {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: typeName)
    let value = try JSONParser.parse(json)
    return #expect(throws: ProtobufError.self) { try pool.encode(value, as: type) }
  }

  @Test func wrongTypeNamesThePath() throws {
    let error = try encodeError(#"{"lesson": {"labels": ["a", 3]}}"#, as: "apxtest.v1.CreateLessonRequest")
    #expect(error?.kind == .invalidJSON)
    #expect(
      error?.message
        == "cannot encode apxtest.v1.CreateLessonRequest from JSON: .lesson.labels[1]: expected a string value, got 3")
    #expect(error?.fieldPath == ".lesson.labels[1]")
  }

  @Test func pathsThroughMapsAndLists() throws {
    let error = try encodeError(#"{"nestedMap": {"a b": {"children": [{}, {"count": true}]}}}"#)
    #expect(
      error?.message.hasSuffix(#".nestedMap["a b"].children[1].count: expected an integer (int32), got true"#) == true)
    let keyError = try encodeError(#"{"intMap": {"12x": "v"}}"#)
    #expect(keyError?.message.hasSuffix(#".intMap["12x"]: map key "12x" is not a valid int64"#) == true)
  }

  @Test func unknownFieldListsValidNames() throws {
    let error = try encodeError(#"{"lesson": {"tittle": "x"}}"#, as: "apxtest.v1.CreateLessonRequest")
    #expect(error?.message.hasSuffix(#".lesson: unknown field "tittle" in message apxtest.v1.Lesson"#) == true)
    #expect(error?.hint?.hasPrefix("did you mean 'title'?") == true)
    #expect(
      error?.hint?.contains("valid fields: createdAt, id, labels, metadata, score, sections, status, title, viewCount")
        == true)
  }

  @Test func ignoreUnknownFieldsOption() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Lesson")
    let bytes = try pool.encode(
      try JSONParser.parse(#"{"id": "x", "extra": {"deep": 1}}"#), as: type,
      options: EncodeOptions(ignoreUnknownFields: true))
    #expect(bytes == [0x0a, 0x01, 0x78])
  }

  @Test func twoOneofMembers() throws {
    let error = try encodeError(#"{"choiceText": "a", "choiceNested": {}}"#)
    #expect(
      error?.message.hasSuffix(
        #""choiceText" and "choiceNested" are both members of oneof 'choice' in apxtest.v1.Everything; set only one"#)
        == true)
  }

  @Test func sameFieldTwiceUnderTwoNames() throws {
    let error = try encodeError(#"{"fInt32": 1, "f_int32": 2}"#)
    #expect(
      error?.message.hasSuffix(#""fInt32" and "f_int32" both set field f_int32 of apxtest.v1.Everything"#) == true)
  }

  @Test func badValuesOfEachKind() throws {
    let cases: [(String, String)] = [
      (#"{"fInt32": 2147483648}"#, "2147483648 is out of range for int32 (-2147483648...2147483647)"),
      (#"{"fUint64": "-1"}"#, #"expected a non-negative integer (uint64), got "-1""#),
      (#"{"fInt64": 1.5}"#, "expected an integer (int64), got 1.5"),
      (#"{"fFloat": 1e39}"#, "1e39 is out of range for float"),
      (#"{"fDouble": "fast"}"#, #"expected a number or "NaN", "Infinity", "-Infinity" (double), got "fast""#),
      (#"{"fBool": "true"}"#, #"expected true or false, got "true""#),
      (#"{"fBytes": "not base64!"}"#, #""not base64!" is not valid base64 (standard or URL-safe)"#),
      (#"{"color": "COLOR_PURPLE"}"#, #""COLOR_PURPLE" is not a value of enum apxtest.v1.Color"#),
      (
        #"{"createdAt": "2024-13-01T00:00:00Z"}"#,
        #"expected an RFC 3339 timestamp like "2024-01-01T00:00:00Z", got "2024-13-01T00:00:00Z""#
      ),
      (#"{"ttl": 5}"#, #"expected a duration like "1.5s", got 5"#),
      (#"{"tags": "x"}"#, #"expected an array for repeated field tags, got "x""#),
      (#"{"tags": [null]}"#, "null is not allowed as an element of repeated field tags"),
      (#"{"nested": 1}"#, "expected a JSON object for message apxtest.v1.Nested, got 1"),
      (
        #"{"payload": {"label": "x"}}"#,
        #"an Any object needs an "@type" member like "type.googleapis.com/package.Message""#
      ),
      (#"{"updateMask": "a_b"}"#, #""a_b" is not a valid lowerCamelCase field mask path"#),
      (#"{"nothing": {"x": 1}}"#, #"google.protobuf.Empty has no fields, got "x""#),
    ]
    for (json, expected) in cases {
      let error = try encodeError(json)
      #expect(error?.message.hasSuffix(expected) == true, "\(json): \(error?.message ?? "no error")")
      #expect(error?.kind == .invalidJSON)
    }
  }

  @Test func rootMustBeAnObject() throws {
    let error = try encodeError("[1]")
    #expect(
      error?.message
        == "cannot encode apxtest.v1.Everything from JSON: expected a JSON object for message apxtest.v1.Everything, got an array"
    )
  }

  @Test func deepJSONIsRejected() throws {
    var json = "{}"
    for _ in 0..<150 { json = #"{"children": [\#(json)]}"# }
    let error = try encodeError(json, as: "apxtest.v1.Nested")
    #expect(error?.message.contains("nested deeper than 100 levels") == true)
  }

  // MARK: malformed bytes

  func decodeError(_ bytes: [UInt8], as typeName: String = "apxtest.v1.Everything") throws -> ProtobufError? {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: typeName)
    return #expect(throws: ProtobufError.self) { try pool.decode(bytes, as: type) }
  }

  @Test func truncatedVarint() throws {
    let error = try decodeError([0x18, 0xff, 0xff])
    #expect(
      error?.message == "cannot decode apxtest.v1.Everything from protobuf bytes: .fInt32: truncated varint at byte 3")
    #expect(error?.kind == .malformedMessage)
  }

  @Test func lengthPastTheEnd() throws {
    let error = try decodeError([0x72, 0x05, 0x61])
    #expect(error?.message.hasSuffix(".fString: length 5 at byte 1 runs past the end of the data") == true)
  }

  @Test func wrongWireTypeForAKnownField() throws {
    let error = try decodeError([0x1a, 0x00])  // field 3 (int32) as length-delimited
    #expect(
      error?.message.hasSuffix(
        ".fInt32: wire type 2 (length-delimited) does not fit field 3 (int32), which uses 0 (varint)") == true)
  }

  @Test func invalidWireTypeAndFieldZero() throws {
    #expect(try decodeError([0x1f, 0x00])?.message.hasSuffix("invalid wire type 7 at byte 0") == true)
    #expect(try decodeError([0x00, 0x00])?.message.hasSuffix("field number 0 at byte 0") == true)
    // An end-group tag for unknown field 999 with no group open.
    #expect(
      try decodeError([0xbc, 0x3e])?.message.hasSuffix("unexpected end-group tag for field 999 at byte 2") == true)
  }

  @Test func overlongVarint() throws {
    let error = try decodeError([0x18] + [UInt8](repeating: 0xff, count: 10) + [0x01])
    #expect(error?.message.contains("varint") == true)
  }

  @Test func invalidUTF8InString() throws {
    let error = try decodeError([0x72, 0x02, 0xc3, 0x28])
    #expect(error?.message.hasSuffix(".fString: string field holds invalid UTF-8") == true)
  }

  @Test func unclosedUnknownGroup() throws {
    let error = try decodeError([0xdb, 0x3e, 0x08, 0x01])  // group 1003 never closed
    #expect(error?.message.contains("group 1003 is not closed") == true)
  }

  @Test func recursionDepthLimit() throws {
    // Nested.children (field 3) wrapped 200 times.
    var bytes: [UInt8] = []
    for _ in 0..<200 {
      var length = bytes.count
      var prefix: [UInt8] = [0x1a]
      while length >= 0x80 {
        prefix.append(UInt8(length & 0x7f) | 0x80)
        length >>= 7
      }
      prefix.append(UInt8(length))
      bytes = prefix + bytes
    }
    let error = try decodeError(bytes, as: "apxtest.v1.Nested")
    #expect(error?.message.contains("nested deeper than 100 levels") == true)
  }

  @Test func outOfRangeTimestamp() throws {
    // created_at (60) = Timestamp{seconds: 300000000000}, past 9999-12-31.
    var seconds: [UInt8] = [0x08]
    var v: UInt64 = 300_000_000_000
    while v >= 0x80 {
      seconds.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    seconds.append(UInt8(v))
    let error = try decodeError([0xe2, 0x03, UInt8(seconds.count)] + seconds)
    #expect(error?.message.contains("google.protobuf.Timestamp out of range") == true)
  }

  @Test func extremeDurationFieldsAreErrorsNotTraps() throws {
    // Duration{seconds: Int64.min}, then Duration{nanos: Int32.min}.
    let minSeconds: [UInt8] = [0x08] + [UInt8](repeating: 0x80, count: 9) + [0x01]
    let minNanos: [UInt8] = [0x10] + [0x80, 0x80, 0x80, 0x80, 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01]
    for body in [minSeconds, minNanos] {
      let error = try decodeError(body, as: "google.protobuf.Duration")
      #expect(error?.message.contains("google.protobuf.Duration out of range") == true)
    }
  }

  @Test func hugeExponentsAreErrorsNotTraps() throws {
    for number in ["1e-9223372036854775808", "1e9223372036854775807", "1e400"] {
      let error = try encodeError(#"{"fInt64": \#(number)}"#)
      #expect(error?.kind == .invalidJSON, "\(number)")
    }
  }

  /// Random bytes (seeded) never crash the decoder: it answers or throws.
  @Test func randomBytesNeverTrap() throws {
    let pool = try Fixtures.requirePool()
    let types = try ["apxtest.v1.Everything", "apxtest.v1.Lesson", "google.protobuf.Struct", "google.protobuf.Any"].map
    {
      try pool.message(named: $0)
    }
    var rng = SeededRandom(seed: 42)
    let seeds = GoldenFixtureTests.golden.map { Fixtures.hex($0.string("hex")) }
    var decoded = 0
    for i in 0..<3000 {
      var bytes: [UInt8]
      if i % 2 == 0, let seed = seeds.randomElement(using: &rng), !seed.isEmpty {
        // Mutate a valid message: flip, truncate or splice bytes.
        bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
          let at = Int.random(in: 0..<bytes.count, using: &rng)
          switch Int.random(in: 0..<3, using: &rng) {
          case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
          case 1: bytes.removeSubrange(at...)
          default: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: at)
          }
          if bytes.isEmpty { break }
        }
      } else {
        bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
      }
      let type = types[i % types.count]
      if (try? pool.decode(bytes, as: type)) != nil { decoded += 1 }
    }
    #expect(decoded > 0)
  }
}
