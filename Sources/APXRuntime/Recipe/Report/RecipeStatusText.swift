public import APXCore

/// The text of a run's status display on stderr: one line per step, and a
/// progress bar for loops and streams on a terminal. Pure text; the CLI
/// decides where it goes.
public enum RecipeStatusText {
  /// `✓ upload  books.imports.create  status 202  0.05s` (terminal) or
  /// `step upload (books.imports.create): ok, status 202, 0.05s` (plain);
  /// retries, reconnects and a fallback to polling are counted in it
  /// (`status 200, 2 retries, 1.02s`).
  public static func line(step: RecipeStep, record: RecipeStepRecord, terminal: Bool, colors: Bool) -> String {
    let status = record.result["status"]?.intValue
    var details: [String] = []
    if let status { details.append("status \(status)") }
    if record.calls > 1 || record.skippedItems + record.resumedItems > 0 {
      details.append("\(record.calls) call\(record.calls == 1 ? "" : "s")")
    }
    if record.skippedItems > 0 {
      details.append("\(record.skippedItems) item\(record.skippedItems == 1 ? "" : "s") skipped")
    }
    if record.resumedItems > 0 { details.append("\(record.resumedItems) done before") }
    if record.failedItems > 0 {
      details.append("\(record.failedItems) item\(record.failedItems == 1 ? "" : "s") failed")
    }
    if let count = record.result["count"]?.intValue { details.append("\(count) item\(count == 1 ? "" : "s")") }
    details += record.notes.details
    let checks = record.checks.reduce((0, 0)) { ($0.0 + $1.passed, $0.1 + $1.failed) }
    if checks.0 + checks.1 > 0 {
      details.append("checks \(checks.0) passed" + (checks.1 > 0 ? ", \(checks.1) failed" : ""))
    }
    if record.state != .skipped && record.state != .resumed { details.append(seconds(record.duration)) }
    if !terminal {
      var text = "step \(step.id) (\(step.call)): \(record.state.rawValue)"
      if !details.isEmpty { text += ", " + details.joined(separator: ", ") }
      if let error = record.error, record.state == .failed { text += " — " + error.message.escapingTerminalControls() }
      return text
    }
    let (mark, color): (String, String)
    switch record.state {
    case .ok: (mark, color) = ("✓", "32")
    case .failed: (mark, color) = ("✗", "31")
    case .skipped: (mark, color) = ("-", "33")
    case .resumed: (mark, color) = ("↷", "36")
    case .interrupted: (mark, color) = ("!", "33")
    }
    let head = colors ? "\u{1B}[\(color)m\(mark)\u{1B}[0m" : mark
    var text = "\(head) \(step.id)  \(step.call)"
    if record.state == .skipped {
      text += "  skipped"
    } else if record.state == .resumed {
      text += "  done before (resumed)"
    } else if record.state == .interrupted {
      text += "  interrupted"
    }
    if !details.isEmpty, record.state != .resumed { text += "  " + details.joined(separator: "  ") }
    // The message may quote a server; the line's own colours stay.
    if let error = record.error, record.state == .failed { text += "\n    " + error.message.escapingTerminalControls() }
    return text
  }

  /// What a progress bar shows of a step: items done of `total`, the seconds since it
  /// began, and the calls retried and items failed so far.
  public struct LoopProgress: Sendable, Equatable {
    public var done: Int
    public var total: Int?
    public var elapsed: Double = 0
    public var retries = 0
    public var failures = 0
    /// `done` and `total` count bytes (a request body being sent), not items.
    public var bytes = false

    /// Makes the progress of a step.
    public init(
      done: Int, total: Int?, elapsed: Double = 0, retries: Int = 0, failures: Int = 0, bytes: Bool = false
    ) {
      self.done = done
      self.total = total
      self.elapsed = elapsed
      self.retries = retries
      self.failures = failures
      self.bytes = bytes
    }
  }

  /// `… upload  [########................]  35/100  35%  12.5/s  ETA 5s  2 retries  1 failed`
  /// for a terminal, overwritten in place (rate and ETA once a second has passed; no bar, percent
  /// or ETA without a total). A body being sent counts bytes: `12.0 MB/30.0 MB  40%  5.1 MB/s`.
  public static func progress(step: RecipeStep, _ p: LoopProgress, width: Int = 24) -> String {
    var text = "\r\u{1B}[2K… \(step.id)  "
    func count(_ n: Int) -> String { p.bytes ? NumberText.bytes(Double(n)) : "\(n)" }
    if let total = p.total, total > 0 {
      let filled = max(0, min(width, p.done * width / total))
      text += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]  "
      text += "\(count(p.done))/\(count(total))  \(min(100, p.done * 100 / total))%"
    } else {
      text += p.bytes ? "\(count(p.done)) sent" : "\(p.done) item\(p.done == 1 ? "" : "s")"
    }
    if p.elapsed >= 1, p.done > 0 {
      let rate = Double(p.done) / p.elapsed
      if p.bytes {
        text += "  " + NumberText.bytes(rate) + "/s"
      } else {
        text += "  " + (rate >= 10 ? "\(Int(rate.rounded()))" : format1(rate)) + "/s"
      }
      if let total = p.total, total > p.done {
        text += "  ETA " + seconds(Double(total - p.done) / rate, wholeAbove: 0)
      }
    }
    if p.retries > 0 { text += "  \(p.retries) retr\(p.retries == 1 ? "y" : "ies")" }
    if p.failures > 0 { text += "  \(p.failures) failed" }
    return text
  }

  /// `2.5`: one decimal.
  private static func format1(_ d: Double) -> String {
    let tenths = Int((d * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }

  /// A duration for people: `0.05s`, `12s`, `3m05s` (whole seconds from `wholeAbove` on).
  public static func seconds(_ d: Double, wholeAbove: Double = 10) -> String {
    guard d.isFinite, d >= 0 else { return "?" }
    if d < wholeAbove { return String(format2(d)) + "s" }
    let whole = Int(min(d, 359_999).rounded())
    if whole < 60 { return "\(whole)s" }
    let (m, sec) = (whole / 60, whole % 60)
    return "\(m)m" + (sec < 10 ? "0" : "") + "\(sec)s"
  }

  private static func format2(_ d: Double) -> String {
    let hundredths = Int((d * 100).rounded())
    let whole = hundredths / 100
    let frac = hundredths % 100
    return "\(whole)." + (frac < 10 ? "0" : "") + "\(frac)"
  }
}
