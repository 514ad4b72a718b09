/// Decodes HPACK's Huffman-coded strings (RFC 7541 §5.2, Appendix B).
///
/// Why not NIOHPACK's decoder: it builds its 4-bit state table by decoding a 200 KB base64 text
/// at the first Huffman string of the process: 0.25 ms of a gRPC call with reflection (every
/// grpc-swift, grpc-go and grpcio server Huffman-codes its headers). The code is canonical, so
/// the symbols sorted by code length, and the first code of each length, decode it bit by bit;
/// header strings are short.
enum HuffmanDecoder {
  /// The canonical code, by length: where each length's codes start and which symbols they are.
  private struct Code {
    /// First code of each length (index: length in bits).
    var firstCode = [UInt32](repeating: 0, count: 31)
    /// How many symbols have each length.
    var count = [UInt32](repeating: 0, count: 31)
    /// Where each length's symbols start in `symbols`.
    var offset = [Int](repeating: 0, count: 31)
    /// The symbols, by code length, then by value.
    var symbols: [UInt16] = []

    init() {
      let lengths = HPACKTables.huffmanCodeLengths
      var code: UInt32 = 0
      for length in 1...30 {
        firstCode[length] = code
        offset[length] = symbols.count
        for (symbol, bits) in lengths.enumerated() where Int(bits) == length {
          symbols.append(UInt16(symbol))
          count[length] += 1
        }
        code = (code + count[length]) << 1
      }
    }
  }

  private static let code = Code()
  /// End of string: never valid inside one.
  private static let endOfString: UInt16 = 256

  /// The bytes `input` encodes, or why it is not a valid Huffman string: it contains EOS, or
  /// ends with padding longer than 7 bits or not made of 1 bits.
  static func decode(_ input: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
    let table = code
    var output: [UInt8] = []
    output.reserveCapacity(input.count * 8 / 5)
    var value: UInt32 = 0
    var length = 0
    for byte in input {
      for shift in stride(from: 7, through: 0, by: -1) {
        value = value << 1 | UInt32(byte >> UInt8(shift) & 1)
        length += 1
        let index = value &- table.firstCode[length]
        guard table.count[length] > index else {
          // No symbol has this code yet; codes are at most 30 bits (EOS's).
          if length == 30 { throw HPACKError("a Huffman code that stands for no symbol") }
          continue
        }
        let symbol = table.symbols[table.offset[length] + Int(index)]
        guard symbol != endOfString else { throw HPACKError("EOS inside a Huffman-coded string") }
        output.append(UInt8(symbol))
        value = 0
        length = 0
      }
    }
    // Padding: the most significant bits of EOS (all 1), fewer than 8 of them.
    guard length < 8, value == (1 << length) - 1 else {
      throw HPACKError("a Huffman-coded string with invalid padding")
    }
    return output
  }
}

/// A header block apx cannot decode (RFC 7541): a COMPRESSION_ERROR.
struct HPACKError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
