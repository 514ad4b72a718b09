/// Renders JSON as an aligned plain-text table for `-o table`.
///
/// An array of objects gives one row per element; a single object gives one
/// row. Columns are the union of the keys in first-seen order. Elements that
/// are not objects go in a column named `value`. Cells hold strings as they
/// are and other values as compact JSON; a missing key leaves the cell empty.
/// Widths count Unicode scalars; long cells are cut with `…`. Columns whose
/// cells are all numbers are right-aligned.
public struct TableFormatter: Sendable {
  /// Cells longer than this many Unicode scalars are truncated (at least 2).
  public var maxCellWidth: Int
  /// Written between columns.
  public var separator: String

  /// Makes a formatter.
  public init(maxCellWidth: Int = 48, separator: String = "  ") {
    self.maxCellWidth = max(2, maxCellWidth)
    self.separator = separator
  }

  /// The table for `value`, one line per row plus a header and a rule, each
  /// ending in a newline. An empty array gives an empty string.
  public func format(_ value: JSONValue) -> String {
    let rows: [JSONValue]
    switch value {
    case .array(let items): rows = items
    default: rows = [value]
    }
    guard !rows.isEmpty else { return "" }

    var columns: [String] = []
    var seen: Set<String> = []
    func addColumn(_ name: String) {
      if seen.insert(name).inserted { columns.append(name) }
    }
    for row in rows {
      if case .object(let members) = row {
        for member in members { addColumn(member.key) }
      } else {
        addColumn(Self.valueColumn)
      }
    }

    // cells[r][c]; nil for a missing key.
    var cells: [[String?]] = []
    var numeric = [Bool](repeating: true, count: columns.count)
    var widths = columns.map { min(Self.width($0), maxCellWidth) }
    for row in rows {
      var line = [String?](repeating: nil, count: columns.count)
      for (c, column) in columns.enumerated() {
        let cell: JSONValue?
        if case .object = row {
          cell = row[column]
        } else {
          cell = column == Self.valueColumn ? row : nil
        }
        guard let cell else { continue }
        if case .number = cell {} else { numeric[c] = false }
        let text = truncate(Self.cellText(cell))
        line[c] = text
        widths[c] = max(widths[c], Self.width(text))
      }
      cells.append(line)
    }

    var out = ""
    appendLine(
      columns.map { truncate($0) }, widths: widths, numeric: [Bool](repeating: false, count: columns.count), to: &out)
    appendLine(widths.map { String(repeating: "-", count: $0) }, widths: widths, numeric: numeric, to: &out)
    for line in cells {
      appendLine(line.map { $0 ?? "" }, widths: widths, numeric: numeric, to: &out)
    }
    return out
  }

  /// The column used for array elements that are not objects.
  public static let valueColumn = "value"

  private func appendLine(_ texts: [String], widths: [Int], numeric: [Bool], to out: inout String) {
    var line = ""
    for (c, text) in texts.enumerated() {
      if c > 0 { line += separator }
      let pad = String(repeating: " ", count: max(0, widths[c] - Self.width(text)))
      line += numeric[c] ? pad + text : text + pad
    }
    // No trailing spaces: they only get in the way of diffs and copy-paste.
    while line.last == " " { line.removeLast() }
    out += line + "\n"
  }

  private func truncate(_ text: String) -> String {
    guard Self.width(text) > maxCellWidth else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxCellWidth - 1))) + "…"
  }

  static func width(_ text: String) -> Int { text.unicodeScalars.count }

  /// A string as is (control characters escaped so rows stay on one line),
  /// anything else as compact JSON.
  static func cellText(_ value: JSONValue) -> String {
    guard case .string(let s) = value else { return value.compactJSON }
    guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return s }
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out.append(contentsOf: "\\n".unicodeScalars)
      case "\r": out.append(contentsOf: "\\r".unicodeScalars)
      case "\t": out.append(contentsOf: "\\t".unicodeScalars)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
        } else {
          out.append(scalar)
        }
      }
    }
    return String(out)
  }
}
