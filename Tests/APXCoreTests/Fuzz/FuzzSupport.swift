import Foundation
import PropertyBased

/// Mutation inputs for the property tests of parsers and decoders.
///
/// Each input is a corpus sample with 1 to 8 edits (flip, insert, delete,
/// duplicate, truncate, splice in something hostile), drawn by PropertyBased,
/// which prints the seed of a failing case (`.fixedSeed(...)`) and shrinks the
/// edit list. CI runs `count` cases per property; `scripts/fuzz.sh N` runs N.
/// A trap kills the test process before PropertyBased can print a seed, so
/// with `APX_FUZZ_VERBOSE=1` each input is printed (hex) before it runs.
enum Fuzz {
  /// Cases per property: `APX_FUZZ_COUNT`, else 150 (CI).
  static let count: Int = ProcessInfo.processInfo.environment["APX_FUZZ_COUNT"].flatMap(Int.init) ?? 150
  static let verbose = ProcessInfo.processInfo.environment["APX_FUZZ_VERBOSE"] == "1"

  /// Byte strings that break parsers: deep nesting, huge numbers, bad escapes and UTF-8, controls.
  static let hostile: [[UInt8]] = [
    Array(String(repeating: "[", count: 2000).utf8), Array(String(repeating: "{\"a\":", count: 800).utf8),
    Array("1e309".utf8), Array("-123456789012345678901234567890".utf8), Array("\"\\uD800\"".utf8),
    Array("\\u00".utf8), [0xFF, 0xFE, 0x00], [0xC3], [0xE2, 0x82], Array("${".utf8), Array("}}}".utf8),
    Array("\r\n\r\n".utf8), Array(":\n".utf8), Array("data:".utf8), Array("[-1:]".utf8), Array(".[\"".utf8),
    Array(String(repeating: ".a", count: 700).utf8), Array("99999999999999999999".utf8), Array("nul".utf8),
  ]

  /// A generator of mutated copies of the samples in `corpus`.
  static func mutated(_ corpus: [String]) -> Generator<[UInt8], some SendableSequenceType> {
    let samples = corpus.map { Array($0.utf8) }
    return zip(Gen.int(in: 0...(samples.count - 1)), Gen.int(in: 0...Int.max).array(of: 1...8))
      .map { index, edits in apply(edits, to: samples[index]) }
  }

  /// Applies each edit (a random number: its low bits pick the kind, the rest the place and bytes).
  static func apply(_ edits: [Int], to sample: [UInt8]) -> [UInt8] {
    var bytes = sample
    for edit in edits {
      let kind = edit & 7
      var rest = edit >> 3
      func next(_ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        defer { rest /= max(bound, 1) }
        return rest % bound
      }
      let at = next(bytes.count + 1)
      switch kind {
      case 0 where !bytes.isEmpty:
        bytes[min(at, bytes.count - 1)] ^= UInt8(truncatingIfNeeded: 1 << next(8))
      case 1:
        bytes.insert(UInt8(truncatingIfNeeded: next(256)), at: at)
      case 2 where !bytes.isEmpty:
        let end = min(bytes.count, at + 1 + next(16))
        bytes.removeSubrange(min(at, bytes.count - 1)..<end)
      case 3 where !bytes.isEmpty:
        let start = min(at, bytes.count - 1)
        let piece = bytes[start..<min(bytes.count, start + 1 + next(32))]
        bytes.insert(contentsOf: piece, at: start)
      case 4:
        bytes = Array(bytes.prefix(at))
      case 5, 6:
        bytes.insert(contentsOf: hostile[next(hostile.count)], at: at)
      default:
        let punctuation = Array("{}[]\":,.\\$ \n-0e+".utf8)
        bytes.insert(punctuation[next(punctuation.count)], at: at)
      }
    }
    return bytes
  }

  /// Prints the input under `APX_FUZZ_VERBOSE=1`, so the last line before a trap names it.
  static func note(_ test: String, _ bytes: [UInt8]) {
    guard verbose else { return }
    FileHandle.standardError.write(Data("fuzz \(test): \(bytes.map { String(format: "%02x", $0) }.joined())\n".utf8))
  }
}
