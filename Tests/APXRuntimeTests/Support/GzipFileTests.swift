import APXCore
import Testing

@testable import APXRuntime

/// `GzipFile`: what `apx import openapi` does with a compressed description.
@Suite struct GzipFileTests {
  /// `{"openapi": "3.0.0"}` and a newline, as Python's `gzip.compress(..., mtime=0)` writes it.
  static let small: [UInt8] = [
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0xca, 0x2f, 0x48, 0xcd, 0x4b, 0x2c, 0xc8,
    0x54, 0xb2, 0x52, 0x50, 0x32, 0xd6, 0x33, 0xd0, 0x33, 0x50, 0xaa, 0xe5, 0x02, 0x00, 0xa7, 0x4c, 0x50, 0x82, 0x15,
    0x00, 0x00, 0x00,
  ]
  /// 5,000 zero bytes in 40 bytes: a small bomb.
  static let zeros: [UInt8] = [
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xc2, 0xa0,
    0xf5, 0x4f, 0x6d, 0x0a, 0x3f, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x80, 0xb7, 0x01, 0xa8, 0x0e, 0xe5, 0xd8, 0x88, 0x13,
    0x00, 0x00,
  ]

  @Test func recognisesGzipByItsMagicNumberOnly() {
    #expect(GzipFile.isCompressed(Self.small))
    #expect(!GzipFile.isCompressed(Array(#"{"openapi": "3.0.0"}"#.utf8)))
    #expect(!GzipFile.isCompressed([0x1f]))
    #expect(!GzipFile.isCompressed([]))
  }

  @Test func inflatesToTheOriginalBytes() throws {
    let text = try GzipFile.inflate(Self.small, source: "a.json.gz", maxBytes: 1 << 20)
    #expect(text == Array("{\"openapi\": \"3.0.0\"}\n".utf8))
    #expect(try GzipFile.inflate(Self.zeros, source: "z.gz", maxBytes: 5000) == [UInt8](repeating: 0, count: 5000))
  }

  @Test func stopsAtTheLimit() {
    #expect {
      try GzipFile.inflate(Self.zeros, source: "bomb.json.gz", maxBytes: 4999)
    } throws: { error in
      guard let e = error as? APXError else { return false }
      return e.status == .invalidDefinition && e.message.contains("bomb.json.gz inflates to more than")
    }
  }

  @Test(arguments: [30, 20, 12])
  func aTruncatedFileIsAnErrorNotAShorterDocument(keep: Int) {
    #expect {
      try GzipFile.inflate(Array(Self.small.prefix(keep)), source: "cut.json.gz", maxBytes: 1 << 20)
    } throws: { error in
      guard let e = error as? APXError else { return false }
      return e.status == .invalidDefinition && e.message.contains("cut.json.gz starts like a gzip file")
        && e.hint?.contains("gzip -t") == true
    }
  }

  @Test func aDamagedFileIsAnError() {
    var damaged = Self.small
    damaged[12] ^= 0xff
    #expect(throws: APXError.self) { try GzipFile.inflate(damaged, source: "bad.gz", maxBytes: 1 << 20) }
  }
}
