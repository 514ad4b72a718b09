/// Seconds given by users (flags, registry and recipe fields, `Retry-After`)
/// turned into the integer units that clocks and NIO take, without trapping:
/// `Int64(seconds * 1000)` traps for `1e300`, infinity or NaN, so every
/// conversion of a user-supplied duration goes through here.
public enum DurationConversion {
  /// The longest duration apx converts, about 31.7 years; longer ones are clamped
  /// (flags and files reject them earlier, with a message).
  public static let maxSeconds: Double = 1e9

  /// Whole milliseconds in `seconds`, clamped to `0...maxSeconds * 1000`;
  /// NaN and negative values give 0.
  public static func milliseconds(_ seconds: Double) -> Int64 {
    Int64((clamped(seconds) * 1000).rounded())
  }

  /// Whole nanoseconds in `seconds`, clamped like `milliseconds(_:)`.
  public static func nanoseconds(_ seconds: Double) -> UInt64 {
    UInt64((clamped(seconds) * 1e9).rounded())
  }

  /// `seconds` within `0...maxSeconds`; NaN gives 0.
  public static func clamped(_ seconds: Double) -> Double {
    guard !seconds.isNaN else { return 0 }
    return Swift.min(Swift.max(seconds, 0), maxSeconds)
  }
}
