import APXCore

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
      if let error = record.error, record.state == .failed { text += " — " + error.message }
      return text
    }
    let (mark, color): (String, String)
    switch record.state {
    case .ok: (mark, color) = ("✓", "32")
    case .failed: (mark, color) = ("✗", "31")
    case .skipped: (mark, color) = ("-", "33")
    case .resumed: (mark, color) = ("↷", "36")
    }
    let head = colors ? "\u{1B}[\(color)m\(mark)\u{1B}[0m" : mark
    var text = "\(head) \(step.id)  \(step.call)"
    if record.state == .skipped {
      text += "  skipped"
    } else if record.state == .resumed {
      text += "  done before (resumed)"
    }
    if !details.isEmpty, record.state != .resumed { text += "  " + details.joined(separator: "  ") }
    if let error = record.error, record.state == .failed { text += "\n    " + error.message }
    return text
  }

  /// `  upload  [#######.............]  35/100` for a terminal, overwritten in place.
  public static func progress(step: RecipeStep, done: Int, total: Int?, width: Int = 24) -> String {
    guard let total, total > 0 else { return "\r\u{1B}[2K… \(step.id)  \(done) item\(done == 1 ? "" : "s")" }
    let filled = min(width, done * width / total)
    return "\r\u{1B}[2K… \(step.id)  [" + String(repeating: "#", count: filled)
      + String(repeating: ".", count: width - filled)
      + "]  \(done)/\(total)"
  }

  /// A duration for people: `0.05s`, `12.3s`.
  public static func seconds(_ d: Double) -> String {
    if d < 10 { return String(format2(d)) + "s" }
    return String(Int(d.rounded())) + "s"
  }

  private static func format2(_ d: Double) -> String {
    let hundredths = Int((d * 100).rounded())
    let whole = hundredths / 100
    let frac = hundredths % 100
    return "\(whole)." + (frac < 10 ? "0" : "") + "\(frac)"
  }
}
