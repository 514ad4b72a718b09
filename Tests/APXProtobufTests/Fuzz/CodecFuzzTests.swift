import APXCore
import APXProtobuf
import Foundation
import PropertyBased
import Testing

/// Mutation tests of the protobuf codec: mutated wire bytes
/// decode or fail with an error, never a trap or a hang; mutated JSON encodes or fails
/// with a message; what decodes encodes again. `APX_FUZZ_COUNT` sets the cases per
/// property (scripts/fuzz.sh); PropertyBased prints a failing case's seed.
@Suite(.timeLimit(.minutes(5)))
struct CodecFuzzTests {
  static let count = ProcessInfo.processInfo.environment["APX_FUZZ_COUNT"].flatMap(Int.init) ?? 150
  static let types = ["apxtest.v1.Everything", "apxtest.v1.Lesson", "apxtest.v1.Nested"]

  /// `sample` with each edit applied (low bits: the kind; the rest: place and byte).
  static func mutate(_ sample: [UInt8], _ edits: [Int]) -> [UInt8] {
    var bytes = sample
    for edit in edits {
      let at = bytes.isEmpty ? 0 : (edit >> 3) % (bytes.count + 1)
      let byte = UInt8(truncatingIfNeeded: edit >> 20)
      switch edit & 7 {
      case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= byte | 1
      case 1: bytes.insert(byte, at: at)
      case 2 where !bytes.isEmpty: bytes.remove(at: min(at, bytes.count - 1))
      case 3: bytes = Array(bytes.prefix(at))
      case 4: bytes.insert(contentsOf: [0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F], at: at)  // a huge length
      case 5: bytes.insert(contentsOf: [UInt8](repeating: 0x8A, count: 10), at: at)  // a runaway varint
      case 6: bytes.insert(contentsOf: [0x8A, 0x01, 0x02, 0x8A, 0x01], at: at)  // nested message header
      default: bytes.insert(contentsOf: [0x0B], at: at)  // a group start
      }
    }
    return bytes
  }

  @Test func wireBytesDecodeOrFail() async throws {
    let pool = try Fixtures.requirePool()
    let sampleJSON = [
      #"{"fString": "s", "fDouble": 1.5, "fInt32": -3, "nested": {"label": "a", "count": 2}, "createdAt": "2024-01-01T00:00:00Z"}"#,
      #"{"id": "les_1", "title": "Algebra", "labels": ["a", "b"]}"#, #"{"label": "a", "count": 2}"#,
    ]
    let samples: [[UInt8]] = try Swift.zip(Self.types, sampleJSON).map { name, json in
      try pool.encode(
        try JSONParser.parse(json), as: try pool.message(named: name), options: EncodeOptions(ignoreUnknownFields: true)
      )
    }
    #expect(samples.allSatisfy { !$0.isEmpty })
    let input = zip(Gen.int(in: 0...(Self.types.count - 1)), Gen.int(in: 0...Int.max).array(of: 1...6))
    await propertyCheck(count: Self.count, input: input) { index, edits in
      let type = try pool.message(named: Self.types[index])
      let bytes = Self.mutate(samples[index], edits)
      do {
        let json = try pool.decode(bytes, as: type)
        // What decodes, encodes; and decodes again to the same JSON.
        let again = try pool.encode(json, as: type)
        #expect(try pool.decode(again, as: type) == json)
      } catch let error as ProtobufError {
        #expect(!error.message.isEmpty)
      }
    }
  }

  @Test func jsonEncodesOrFailsWithAMessage() async throws {
    let pool = try Fixtures.requirePool()
    let corpus = Array(
      #"{"id": "les_1", "title": "T", "labels": ["x"], "createdAt": "2024-01-01T00:00:00Z", "state": "DRAFT"}"#.utf8)
    await propertyCheck(count: Self.count, input: Gen.int(in: 0...Int.max).array(of: 1...6)) { edits in
      let type = try pool.message(named: "apxtest.v1.Lesson")
      let text = String(decoding: Self.mutate(corpus, edits), as: UTF8.self)
      guard let json = try? JSONParser.parse(text) else { return }
      do {
        let bytes = try pool.encode(json, as: type)
        _ = try pool.decode(bytes, as: type)
      } catch let error as ProtobufError {
        #expect(!error.message.isEmpty)
      }
    }
  }
}
