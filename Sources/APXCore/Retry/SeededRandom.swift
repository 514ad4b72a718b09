/// SplitMix64: a small deterministic generator. `apx mock --seed` draws its answers from it, so
/// one seed gives the same answers on every run and platform (Swift's own generator and
/// hashing are seeded per process); tests draw reproducible jitter and mutations from it.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// A generator for one purpose: `seed` mixed with a stable (FNV-1a) hash of `key`.
  public init(seed: UInt64, key: String) {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    state = seed ^ hash
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
