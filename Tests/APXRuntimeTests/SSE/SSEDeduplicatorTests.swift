import Testing

@testable import APXRuntime

/// The resume window of `SSEDeduplicator`.
@Suite("SSE deduplicator")
struct SSEDeduplicatorTests {
  /// Delivers ids through the deduplicator, returning those kept.
  private func pass(_ ids: [String?], _ dedupe: inout SSEDeduplicator) -> [String?] {
    var kept: [String?] = []
    for id in ids where !dedupe.isDuplicate(id) {
      dedupe.record(id)
      kept.append(id)
    }
    return kept
  }

  @Test("a server that replays from the start after a resume prints nothing twice")
  func replayFromStart() {
    var dedupe = SSEDeduplicator()
    #expect(pass(["1", "2", "3"], &dedupe) == ["1", "2", "3"])
    dedupe.beginResume()
    #expect(pass(["1", "2", "3", "4", "5"], &dedupe) == ["4", "5"])
  }

  @Test("ids repeat legitimately outside a resume (events without their own id)")
  func repeatsOutsideResume() {
    var dedupe = SSEDeduplicator()
    #expect(pass(["1", "1", "2"], &dedupe) == ["1", "1", "2"])
    dedupe.beginResume()
    // The first new id ends the replay window; a later old id is kept.
    #expect(pass(["3", "1"], &dedupe) == ["3", "1"])
  }

  @Test("only the last `capacity` ids are remembered")
  func bounded() {
    var dedupe = SSEDeduplicator(capacity: 2)
    _ = pass(["a", "b", "c"], &dedupe)
    dedupe.beginResume()
    #expect(pass(["b", "c", "d"], &dedupe) == ["d"])
    dedupe.beginResume()
    #expect(pass(["a"], &dedupe) == ["a"])
  }

  @Test("before any event, a resume checks nothing")
  func emptyResume() {
    var dedupe = SSEDeduplicator()
    dedupe.beginResume()
    #expect(!dedupe.resuming)
    #expect(pass([nil, "1"], &dedupe) == [nil, "1"])
  }
}
