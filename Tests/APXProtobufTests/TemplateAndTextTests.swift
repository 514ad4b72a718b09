import APXCore
import APXProtobuf
import Testing

@Suite struct TemplateTests {
  @Test func templateShowsEveryFieldAndEncodes() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "apxtest.v1.Everything")
    let template = pool.template(for: type)
    let keys = template.objectMembers?.map(\.key) ?? []
    // Every field except the 3 extra members of the oneof "choice".
    #expect(keys.count == type.fields.count - 3)
    #expect(keys.contains("choiceText") && !keys.contains("choiceNumber"))
    #expect(template["createdAt"] == .string("2024-01-01T00:00:00Z"))
    #expect(template["ttl"] == .string("1.5s"))
    #expect(template["fInt64"] == .string("0"))
    #expect(template["fDouble"] == .number("0.0"))
    #expect(template["color"] == .string("COLOR_UNSPECIFIED"))
    #expect(template["tags"] == .array([.string("")]))
    #expect(template["intMap"] == .object([JSONMember("0", .string(""))]))
    #expect(template["nested"]?["children"]?[0]?["label"] == .string(""))
    #expect(template["wBool"] == .bool(false))
    // What `apx describe` prints must be a valid request.
    let bytes = try pool.encode(template, as: type)
    #expect(!bytes.isEmpty)
  }

  @Test func recursiveTypesStopAtTheDepthLimit() throws {
    let pool = try Fixtures.requirePool()
    let template = pool.template(for: try pool.message(named: "apxtest.v1.Nested"))
    var depth = 0
    var current: JSONValue? = template
    while let next = current?["children"]?[0] {
      depth += 1
      current = next
    }
    #expect(depth == DescriptorPool.templateDepthLimit)
    #expect(current == .object([]))
  }

  @Test func lessonTemplate() throws {
    let pool = try Fixtures.requirePool()
    let template = pool.template(for: try pool.message(named: "apxtest.v1.CreateLessonRequest"))
    #expect(
      text(template)
        == #"{"lesson":{"id":"","title":"","labels":[""],"createdAt":"2024-01-01T00:00:00Z","metadata":{"key":""},"sections":[{"heading":"","body":"","minutes":0}],"status":"STATUS_UNSPECIFIED","viewCount":"0","score":0.0}}"#
    )
  }
}

@Suite struct TextFormTests {
  func decodeDouble(_ value: Double) throws -> String {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.DoubleValue")
    var bytes: [UInt8] = [0x09]
    for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64(i)))) }
    return text(try pool.decode(bytes, as: type))
  }

  func decodeFloat(_ value: Float) throws -> String {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.FloatValue")
    var bytes: [UInt8] = [0x0d]
    for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt32(i)))) }
    return text(try pool.decode(bytes, as: type))
  }

  /// Python's repr layout: fixed notation for exponents -4..<16, else `1e+16`.
  @Test func doublesPrintLikePython() throws {
    let cases: [(Double, String)] = [
      (1, "1.0"), (-2.5, "-2.5"), (0.1, "0.1"), (1e16, "1e+16"), (1e15, "1000000000000000.0"),
      (1.5e16, "1.5e+16"), (0.0001, "0.0001"), (0.00001, "1e-05"), (123456789.123, "123456789.123"),
      (5e-324, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (-0.0, "-0.0"),
      (.nan, "\"NaN\""), (-.infinity, "\"-Infinity\""),
    ]
    for (value, expected) in cases {
      #expect(try decodeDouble(value) == expected, "\(value)")
    }
  }

  /// json_format's ToShortestFloat: shortest digits, but at least 6.
  @Test func floatsPrintLikeJSONFormat() throws {
    let cases: [(Float, String)] = [
      (0.1, "0.1"), (1e-45, "1.4013e-45"), (16777217, "16777216.0"), (3.4028235e38, "3.4028235e+38"),
      (0.3, "0.3"), (1.17549435e-38, "1.1754944e-38"), (2.5, "2.5"), (.infinity, "\"Infinity\""),
    ]
    for (value, expected) in cases {
      #expect(try decodeFloat(value) == expected, "\(value)")
    }
  }

  /// The float that json_format prints as 3.4028235e+38 (just above FLT_MAX as a
  /// double) is accepted back, unlike Python, because it rounds to FLT_MAX.
  @Test func largestFloatRoundTrips() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.FloatValue")
    let bytes = try pool.encode(.number("3.4028235e+38"), as: type)
    #expect(try text(pool.decode(bytes, as: type)) == "3.4028235e+38")
  }

  @Test func base64Forms() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.BytesValue")
    for input in ["+/8=", "+/8", "-_8", "-_8="] {
      let bytes = try pool.encode(.string(input), as: type)
      #expect(try pool.decode(bytes, as: type) == .string("+/8="), "\(input)")
    }
    for bad in ["+/8==", "a", "ab=c", "é"] {
      #expect(throws: ProtobufError.self, "\(bad)") { try pool.encode(.string(bad), as: type) }
    }
  }

  @Test func timestampForms() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.Timestamp")
    let cases: [(String, String)] = [
      ("2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"),
      ("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.500Z"),
      ("2024-01-01t02:00:00.000001+02:00", "2024-01-01T00:00:00.000001Z"),
      ("1969-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.999999999Z"),
      ("2000-02-29T00:00:00-00:30", "2000-02-29T00:30:00Z"),
    ]
    for (input, expected) in cases {
      let bytes = try pool.encode(.string(input), as: type)
      #expect(try pool.decode(bytes, as: type) == .string(expected), "\(input)")
    }
    for bad in [
      "2023-02-29T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01 00:00:00Z", "10000-01-01T00:00:00Z",
      "2024-01-01T00:00:00.1234567890Z", "0000-12-31T23:59:59Z",
    ] {
      #expect(throws: ProtobufError.self, "\(bad)") { try pool.encode(.string(bad), as: type) }
    }
  }

  @Test func durationForms() throws {
    let pool = try Fixtures.requirePool()
    let type = try pool.message(named: "google.protobuf.Duration")
    let cases: [(String, String)] = [
      ("1.5s", "1.500s"), ("-0.5s", "-0.500s"), ("0s", "0s"), ("3.000000001s", "3.000000001s"),
    ]
    for (input, expected) in cases {
      let bytes = try pool.encode(.string(input), as: type)
      #expect(try pool.decode(bytes, as: type) == .string(expected), "\(input)")
    }
    for bad in ["1.5", "s", "1.s", "315576000001s", "1m", "--1s"] {
      #expect(throws: ProtobufError.self, "\(bad)") { try pool.encode(.string(bad), as: type) }
    }
  }
}
