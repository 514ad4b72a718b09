/// Times a closure over many iterations with the monotonic clock.
struct Stopwatch {
  /// Nanoseconds per iteration of `body`, run `iterations` times after a
  /// warm-up of a tenth as many (first-touch allocations and caches).
  static func nanosecondsPerOp(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<max(1, iterations / 10) { try body() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { try body() }
    let elapsed = clock.now - start
    let (seconds, attoseconds) = elapsed.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return nanoseconds / Double(iterations)
  }
}
