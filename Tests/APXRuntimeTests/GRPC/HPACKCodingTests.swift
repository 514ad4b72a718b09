import Foundation
import NIOCore
import NIOHPACK
import PropertyBased
import Testing

@testable import APXRuntime

/// The direct gRPC client's HPACK (RFC 7541), checked against what others wrote: the RFC's own
/// examples, header blocks that nghttp2, python-hpack, go-hpack and Haskell's http2 encoded
/// (hpack-test-case), and NIOHPACK's encoder and decoder on random header lists.
@Suite struct HPACKCodingTests {
  typealias Fields = [(name: String, value: String)]

  static func same(_ a: Fields, _ b: [(String, String)]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.0 && $0.value == $1.1 }
  }

  /// RFC 7541 C.4: three requests sharing one context, Huffman-coded.
  @Test func decodesTheRFCsRequestExamples() throws {
    var decoder = HeaderBlockDecoder(maxHeaderListSize: 16_384)
    let first = try decoder.decode([
      0x82, 0x86, 0x84, 0x41, 0x8c, 0xf1, 0xe3, 0xc2, 0xe5, 0xf2, 0x3a, 0x6b, 0xa0, 0xab, 0x90, 0xf4, 0xff,
    ])
    #expect(
      Self.same(first, [(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com")]))
    let second = try decoder.decode([0x82, 0x86, 0x84, 0xbe, 0x58, 0x86, 0xa8, 0xeb, 0x10, 0x64, 0x9c, 0xbf])
    #expect(
      Self.same(
        second,
        [
          (":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "www.example.com"),
          ("cache-control", "no-cache"),
        ]))
    let third = try decoder.decode([
      0x82, 0x87, 0x85, 0xbf, 0x40, 0x88, 0x25, 0xa8, 0x49, 0xe9, 0x5b, 0xa9, 0x7d, 0x7f, 0x89, 0x25, 0xa8, 0x49,
      0xe9, 0x5b, 0xb8, 0xe8, 0xb4, 0xbf,
    ])
    #expect(
      Self.same(
        third,
        [
          (":method", "GET"), (":scheme", "https"), (":path", "/index.html"), (":authority", "www.example.com"),
          ("custom-key", "custom-value"),
        ]))
  }

  /// RFC 7541 C.6: three responses in a 256-byte table, so that entries are evicted.
  @Test func decodesTheRFCsResponseExamplesWithEviction() throws {
    var decoder = HeaderBlockDecoder(maxTableSize: 256, maxHeaderListSize: 16_384)
    let first = try decoder.decode([
      0x48, 0x82, 0x64, 0x02, 0x58, 0x85, 0xae, 0xc3, 0x77, 0x1a, 0x4b, 0x61, 0x96, 0xd0, 0x7a, 0xbe, 0x94, 0x10,
      0x54, 0xd4, 0x44, 0xa8, 0x20, 0x05, 0x95, 0x04, 0x0b, 0x81, 0x66, 0xe0, 0x82, 0xa6, 0x2d, 0x1b, 0xff, 0x6e,
      0x91, 0x9d, 0x29, 0xad, 0x17, 0x18, 0x63, 0xc7, 0x8f, 0x0b, 0x97, 0xc8, 0xe9, 0xae, 0x82, 0xae, 0x43, 0xd3,
    ])
    let date1 = ("date", "Mon, 21 Oct 2013 20:13:21 GMT")
    let location = ("location", "https://www.example.com")
    #expect(Self.same(first, [(":status", "302"), ("cache-control", "private"), date1, location]))
    let second = try decoder.decode([0x48, 0x83, 0x64, 0x0e, 0xff, 0xc1, 0xc0, 0xbf])
    #expect(Self.same(second, [(":status", "307"), ("cache-control", "private"), date1, location]))
    let third = try decoder.decode([
      0x88, 0xc1, 0x61, 0x96, 0xd0, 0x7a, 0xbe, 0x94, 0x10, 0x54, 0xd4, 0x44, 0xa8, 0x20, 0x05, 0x95, 0x04, 0x0b,
      0x81, 0x66, 0xe0, 0x84, 0xa6, 0x2d, 0x1b, 0xff, 0xc0, 0x5a, 0x83, 0x9b, 0xd9, 0xab, 0x77, 0xad, 0x94, 0xe7,
      0x82, 0x1d, 0xd7, 0xf2, 0xe6, 0xc7, 0xb3, 0x35, 0xdf, 0xdf, 0xcd, 0x5b, 0x39, 0x60, 0xd5, 0xaf, 0x27, 0x08,
      0x7f, 0x36, 0x72, 0xc1, 0xab, 0x27, 0x0f, 0xb5, 0x29, 0x1f, 0x95, 0x87, 0x31, 0x60, 0x65, 0xc0, 0x03, 0xed,
      0x4e, 0xe5, 0xb1, 0x06, 0x3d, 0x50, 0x07,
    ])
    #expect(
      Self.same(
        third,
        [
          (":status", "200"), ("cache-control", "private"), ("date", "Mon, 21 Oct 2013 20:13:22 GMT"), location,
          ("content-encoding", "gzip"), ("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"),
        ]))
  }

  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/hpack-test-case")

  static let stories = [
    "nghttp2/story_24.json", "python-hpack/story_24.json", "go-hpack/story_01.json",
    "haskell-http2-linear-huffman/story_01.json", "nghttp2-change-table-size/story_01.json",
    "nghttp2-change-table-size/story_24.json",
  ]

  /// Every case of each story, in order, in one context, as the corpus's README asks.
  @Test(arguments: stories) func decodesWhatOtherEncodersWrote(_ story: String) throws {
    let data = try Data(contentsOf: Self.corpus.appendingPathComponent(story))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let cases = try #require(json["cases"] as? [[String: Any]])
    #expect(cases.count > 1)
    var decoder = HeaderBlockDecoder(maxHeaderListSize: 1 << 20)
    for item in cases {
      if let size = item["header_table_size"] as? Int { decoder.maxTableSize = size }
      let wire = try #require(item["wire"] as? String)
      let bytes = stride(from: 0, to: wire.count, by: 2).map { offset -> UInt8 in
        let start = wire.index(wire.startIndex, offsetBy: offset)
        return UInt8(wire[start..<wire.index(start, offsetBy: 2)], radix: 16)!
      }
      let expected = try #require(item["headers"] as? [[String: String]]).map { ($0.keys.first!, $0.values.first!) }
      let decoded = try decoder.decode(bytes)
      #expect(Self.same(decoded, expected), "case \(item["seqno"] ?? "?") of \(story)")
    }
  }

  /// Header names and values as a server might send them (printable ASCII, some of it
  /// repeated so that the encoder indexes it).
  static let headerLists = zip(
    Gen.oneOf(
      Gen.int(in: 0...6).map { "x-\($0)" }, Gen.always("content-type"), Gen.always(":status"),
      Gen.always("grpc-status")),
    Gen.oneOf(
      Gen.always("application/grpc"), Gen.int(in: 0...16).map { String($0) },
      Gen.int(in: 32...126).map { String(UnicodeScalar(UInt8($0))) }.array(of: 0...40).map { $0.joined() })
  ).map { name, value in (name, value) }.array(of: 0...12).array(of: 1...5)

  /// NIOHPACK's encoder (Huffman coding, incremental indexing, one context over several
  /// blocks) into apx's decoder.
  @Test func decodesWhatNIOHPACKEncodes() async {
    await propertyCheck(count: 200, input: Self.headerLists) { blocks in
      var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
      var decoder = HeaderBlockDecoder(maxHeaderListSize: 1 << 20)
      for block in blocks {
        try! encoder.beginEncoding(allocator: ByteBufferAllocator())
        try! encoder.append(headers: HPACKHeaders(block))
        var buffer = try! encoder.endEncoding()
        let bytes = buffer.readBytes(length: buffer.readableBytes)!
        let decoded = try? decoder.decode(bytes)
        #expect(decoded.map { Self.same($0, block) } == true, "\(block)")
      }
    }
  }

  /// apx's encoder into NIOHPACK's decoder, credentials included.
  @Test func encodesWhatNIOHPACKDecodes() async {
    await propertyCheck(count: 200, input: Self.headerLists) { blocks in
      var decoder = HPACKDecoder(allocator: ByteBufferAllocator())
      for block in blocks {
        let headers = block + [(":method", "POST"), (":scheme", "http"), ("authorization", "Bearer t0ken")]
        var buffer = ByteBuffer(bytes: HeaderBlockEncoder.encode(headers, sensitive: H2Connection.sensitive))
        let decoded = try? decoder.decodeHeaders(from: &buffer)
        #expect(
          decoded.map { Array($0).map { ($0.name, $0.value) } }.map { Self.same(headers.map { ($0.0, $0.1) }, $0) }
            == true)
        // Never indexed: no intermediary's table keeps it.
        #expect(decoded.map { Array($0).last!.indexable } == HPACKIndexing.neverIndexed)
      }
    }
  }

  /// NIOHPACK Huffman-codes every string; U+0000...U+00FF make every byte below 0xC4.
  @Test func huffmanDecodesEveryCharacterUpToU00FF() throws {
    let value = String(String.UnicodeScalarView((0...255).map { UnicodeScalar(UInt8($0)) }))
    var encoder = HPACKEncoder(allocator: ByteBufferAllocator())
    try encoder.beginEncoding(allocator: ByteBufferAllocator())
    try encoder.appendNonIndexed(header: "x-all", value: value)
    var buffer = try encoder.endEncoding()
    var decoder = HeaderBlockDecoder(maxHeaderListSize: 16_384)
    let decoded = try decoder.decode(buffer.readBytes(length: buffer.readableBytes)!)
    #expect(Self.same(decoded, [("x-all", value)]))
  }

  /// Blocks a hostile server might send: each is refused with a reason, never a crash.
  @Test(
    arguments: [
      ([0x80], "index 0"),
      ([0xBF], "index 63 with an empty dynamic table"),
      ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "an integer past 2^28"),
      ([0x3F, 0xE2, 0x1F], "a table size above 4,096"),
      ([0x82, 0x20], "a table size update after a field"),
      ([0x00, 0x05, 0x61], "a name longer than the block"),
      ([0x00, 0x81, 0xFF, 0x00], "a Huffman string of 8 padding bits"),
      ([0x00, 0x81, 0x00, 0x00], "padding that is not all 1 bits"),
      ([0x00, 0x84, 0xFF, 0xFF, 0xFF, 0xFF, 0x00], "EOS inside a Huffman string"),
      ([0x00, 0x7F], "an integer cut short"),
    ] as [([UInt8], String)])
  func refusesMalformedBlocks(_ block: [UInt8], _ what: String) {
    var decoder = HeaderBlockDecoder(maxHeaderListSize: 16_384)
    #expect(throws: HPACKError.self, "\(what)") { try decoder.decode(block) }
  }

  @Test func refusesAHeaderListOverItsLimit() throws {
    var decoder = HeaderBlockDecoder(maxHeaderListSize: 100)
    let value = String(repeating: "v", count: 60)
    let block = HeaderBlockEncoder.encode([("x-a", value)], sensitive: [])
    #expect(try decoder.decode(block).count == 1)
    #expect(throws: HPACKError.self) { try decoder.decode(block + block) }
  }
}
