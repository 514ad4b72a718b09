public import APXCore

/// The text of a long job's progress line, as `apx call` and `apx run` draw it, kept apart
/// from drawing so it is a plain function of the state: `[#######.......]  45%  450/1000  120/s  ETA 4s`.
public struct ProgressLine: Sendable {
  public var fraction: Double?
  public var done: Double?
  public var total: Double?
  /// Units of `done` per second.
  public var rate: Double?
  /// Seconds left.
  public var eta: Double?
  /// Waiting to reconnect: the wait and the id the stream resumes from.
  public var reconnecting: (after: Double, from: String?)?
  /// Polling instead of streaming: the endpoint and interval.
  public var polling: (endpoint: String, interval: Double)?
  /// `done`, `total` and `rate` count bytes (a transfer): shown as kB, MB, GB.
  public var bytes = false

  public init() {}

  /// Whether there is anything to draw.
  public var hasContent: Bool {
    fraction != nil || done != nil || reconnecting != nil || polling != nil
  }

  /// The line, at most `width` characters.
  public func render(width: Int) -> String {
    var parts: [String] = []
    if let fraction {
      let percent = Int((fraction * 100).rounded(.down))
      let barWidth = max(10, min(30, width / 4))
      let filled = Int((fraction * Double(barWidth)).rounded(.down))
      parts.append(
        "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "] "
          + Self.leftPad("\(percent)%", 4))
    }
    if let done {
      let doneText = bytes ? Self.byteCount(done) : Self.count(done)
      if let total {
        parts.append(doneText + "/" + (bytes ? Self.byteCount(total) : Self.count(total)))
      } else {
        parts.append(bytes ? doneText : doneText + " done")
      }
    }
    if let reconnecting {
      parts.append(
        "reconnecting in \(Self.duration(reconnecting.after))…" + (reconnecting.from.map { " (from \($0))" } ?? ""))
    } else {
      if let rate, rate > 0 { parts.append("\(bytes ? Self.byteCount(rate) : Self.rate(rate))/s") }
      if let eta, fraction.map({ $0 < 1 }) ?? true { parts.append("ETA \(Self.duration(eta))") }
      // The endpoint is named in the printer's note; the bar stays short.
      if let polling { parts.append("polling every \(Self.duration(polling.interval))") }
    }
    let line = parts.joined(separator: "  ")
    return line.count <= width ? line : String(line.prefix(max(0, width - 1))) + "…"
  }

  static func leftPad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  static func count(_ value: Double) -> String {
    value.rounded() == value ? NumberText.plain(value) : NumberText.oneDecimal(value)
  }

  /// `512 B`, `12.5 kB`, `3.1 MB`, `1.2 GB`.
  static func byteCount(_ value: Double) -> String { NumberText.bytes(value) }

  static func rate(_ value: Double) -> String {
    value >= 100 ? NumberText.plain(value.rounded()) : NumberText.oneDecimal(value)
  }

  /// `4s`, `1m05s`, `2h03m`; fractions of a second below 10 s keep one decimal.
  static func duration(_ seconds: Double) -> String {
    // An ETA past a year is no estimate (and Int(1e300) would trap).
    guard seconds.isFinite, seconds >= 0, seconds < 31_536_000 else { return "?" }
    if seconds < 10, seconds.rounded() != seconds { return NumberText.oneDecimal(seconds) + "s" }
    let total = Int(seconds.rounded())
    if total < 60 { return "\(total)s" }
    if total < 3600 { return "\(total / 60)m" + leftZero(total % 60) + "s" }
    return "\(total / 3600)h" + leftZero(total / 60 % 60) + "m"
  }

  private static func leftZero(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// Recent progress samples, from which the rate and the time left are computed over the last
/// `window` seconds (a job that slows down shows its present speed, not its average).
public struct ProgressSamples: Sendable {
  /// Seconds of samples the rate is computed over.
  public static let window = 10.0
  private var samples: [(time: Double, done: Double?, fraction: Double?)] = []

  public init() {}

  /// Takes one update at `now` (seconds on any steady clock) and returns the rate of `done` per
  /// second and the seconds left, once half a second of samples is in.
  public mutating func record(now: Double, done: Double?, fraction: Double?, total: Double?) -> (
    rate: Double?, eta: Double?
  ) {
    // Only samples that measure something (a `queued` event may carry just the total).
    guard done != nil || fraction != nil else { return (nil, nil) }
    samples.append((now, done, fraction))
    while let first = samples.first, now - first.time > Self.window, samples.count > 2 {
      samples.removeFirst()
    }
    guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.5 else { return (nil, nil) }
    let elapsed = last.time - first.time
    if let d0 = first.done, let d1 = last.done {
      let rate = (d1 - d0) / elapsed
      return (rate, rate > 0 ? total.map { max(0, $0 - d1) / rate } : nil)
    }
    if let f0 = first.fraction, let f1 = last.fraction, f1 > f0 {
      return (nil, (1 - f1) / ((f1 - f0) / elapsed))
    }
    return (nil, nil)
  }
}
