import APXCore

/// A JUnit XML report of a run (`apx run --report junit FILE`), the format CI
/// systems read: one `<testsuite>` for the recipe, one `<testcase>` per step
/// (its call) and one per check, with `<failure>` for what failed and
/// `<skipped/>` for steps that did not run and for the foreach items a
/// per-item `if` skipped (one testcase per such step). A step's retries,
/// reconnects and fallbacks to polling are in its testcase's `<system-out>`.
public struct JUnitReport: Sendable {
  /// The recipe file (the suite's name).
  public var recipe: String
  public var result: RecipeRunResult
  /// Ids of every step in the recipe, so steps that never ran are reported as skipped.
  public var stepIDs: [String]
  /// Masks secret inputs and credentials in names and failure texts.
  public var mask: SecretMask

  /// Makes a report.
  public init(recipe: String, result: RecipeRunResult, stepIDs: [String] = [], mask: SecretMask = SecretMask()) {
    self.recipe = recipe
    self.result = result
    self.stepIDs = stepIDs
    self.mask = mask
  }

  /// The XML document.
  public func xml() -> String {
    struct Case {
      var classname: String
      var name: String
      var time: Double
      var failure: String?
      var skipped: Bool
      var output: [String] = []
    }
    var cases: [Case] = []
    var seen = Set<String>()
    for record in result.records {
      seen.insert(record.id)
      let callFailed = record.state == .failed && (record.error?.status != .expectation || record.checks.isEmpty)
      cases.append(
        Case(
          classname: record.id, name: "\(record.id): \(record.call)", time: record.duration,
          failure: callFailed ? record.error?.message ?? "failed" : nil,
          // An interrupted step neither passed nor failed: skipped, saying so (a resumed run runs it).
          skipped: record.state == .skipped || record.state == .interrupted,
          output: record.notes.lines
            + (record.notes.omitted > 0 ? ["(\(record.notes.omitted) more not shown)"] : [])
            + (record.state == .interrupted ? ["interrupted while it ran"] : [])))
      if record.skippedItems > 0 {
        let total = record.calls + record.skippedItems + record.resumedItems
        cases.append(
          Case(
            classname: record.id, name: "\(record.id): \(record.skippedItems) of \(total) items skipped (if)", time: 0,
            failure: nil, skipped: true))
      }
      for check in record.checks {
        let failure: String? =
          check.failed > 0
          ? (check.failure ?? check.name)
            + (check.passed + check.failed > 1 ? " (\(check.failed) of \(check.passed + check.failed) failed)" : "")
          : nil
        cases.append(Case(classname: record.id, name: check.name, time: 0, failure: failure, skipped: false))
      }
    }
    for id in stepIDs where !seen.contains(id) {
      cases.append(Case(classname: id, name: "\(id): not run", time: 0, failure: nil, skipped: true))
    }
    let failures = cases.filter { $0.failure != nil }.count
    let skipped = cases.filter(\.skipped).count
    let total = result.records.reduce(0.0) { $0 + $1.duration }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"apx\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(Self.time(total))\">\n"
    out +=
      "  <testsuite name=\"\(Self.escape(recipe))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(Self.time(total))\">\n"
    for c in cases {
      out +=
        "    <testcase classname=\"\(Self.escape(c.classname))\" name=\"\(Self.escape(mask.mask(c.name)))\" time=\"\(Self.time(c.time))\""
      var inner = ""
      if let failure = c.failure.map(mask.mask) {
        inner += "      <failure message=\"\(Self.escape(failure))\">\(Self.escape(failure))</failure>\n"
      } else if c.skipped {
        inner += "      <skipped/>\n"
      }
      if !c.output.isEmpty {
        // One line per note: element text keeps its newlines (only attributes need `&#10;`).
        let lines = c.output.map { Self.escape(mask.mask($0)) }.joined(separator: "\n")
        inner += "      <system-out>\(lines)</system-out>\n"
      }
      out += inner.isEmpty ? "/>\n" : ">\n" + inner + "    </testcase>\n"
    }
    if result.interrupted {
      out += "    <system-err>the run was interrupted</system-err>\n"
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// XML-escapes text for attributes and content; drops characters XML 1.0 forbids.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\n": out += "&#10;"
      case "\t", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func time(_ seconds: Double) -> String {
    let ms = Int((seconds * 1000).rounded())
    let frac = ms % 1000
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - String(frac).count) + "\(frac)"
  }
}
