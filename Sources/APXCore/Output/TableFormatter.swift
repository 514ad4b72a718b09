/// Renders JSON as an aligned plain-text table for `-o table`.
///
/// An array of objects gives one row per element; a single object gives one
/// row. Columns are the union of the keys in first-seen order. Elements that
/// are not objects go in a column named `value`. Cells hold strings as they
/// are and other values as compact JSON; a missing key leaves the cell empty.
/// Widths count terminal cells (`TerminalCells`: CJK and emoji take two); long cells are cut
/// with `…`. Columns whose
/// cells are all numbers are right-aligned.
///
/// With a `maxLineWidth` (a terminal's columns) the widest columns are narrowed first, down to
/// ten characters; if the table still does not fit, columns are left out from the right. The
/// key columns (the first one, and any named `id`, `name`, `key` or ending in `_id`) are never left
/// out, so each row stays identifiable.
public struct TableFormatter: Sendable {
  /// Cells wider than this many terminal cells are truncated (at least 2).
  public var maxCellWidth: Int
  /// Written between columns.
  public var separator: String
  /// The widest a line may be, or nil for no limit.
  public var maxLineWidth: Int?
  /// Columns shown whole, never narrowed nor left out to fit `maxLineWidth`: what a user
  /// copies from the table (an endpoint's name, a gRPC service and method).
  public var keepWhole: Set<String>
  /// Columns not cut at `maxCellWidth`, though narrowed like others to fit `maxLineWidth`: long
  /// values worth reading whole where there is room (an endpoint's method and path).
  public var uncapped: Set<String>
  /// The narrowest a column is made to fit `maxLineWidth` (`ab…` at 3).
  public static let minColumnWidth = 3

  /// Makes a formatter.
  public init(
    maxCellWidth: Int = 48, separator: String = "  ", maxLineWidth: Int? = nil, keepWhole: Set<String> = [],
    uncapped: Set<String> = []
  ) {
    self.maxCellWidth = max(2, maxCellWidth)
    self.separator = separator
    self.maxLineWidth = maxLineWidth.map { max(Self.minColumnWidth, $0) }
    self.keepWhole = keepWhole
    self.uncapped = uncapped
  }

  /// A table and the columns left out to fit `maxLineWidth`.
  public struct Fitted: Sendable, Equatable {
    /// The table's lines, each ending in a newline.
    public var text: String
    /// Columns left out, in their order; empty when all fit.
    public var hiddenColumns: [String]
  }

  /// The table for `value` (see `fitted(_:)`); columns that do not fit are left out silently.
  public func format(_ value: JSONValue) -> String { fitted(value).text }

  /// The table for `value`, one line per row plus a header and a rule, each
  /// ending in a newline, and what was left out to fit. An empty array gives an empty string.
  public func fitted(_ value: JSONValue) -> Fitted {
    let rows: [JSONValue]
    switch value {
    case .array(let items): rows = items
    default: rows = [value]
    }
    guard !rows.isEmpty else { return Fitted(text: "", hiddenColumns: []) }

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
    let capped = { (column: String) in !keepWhole.contains(column) && !uncapped.contains(column) }
    var widths = columns.map { capped($0) ? min(Self.width($0), maxCellWidth) : Self.width($0) }
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
        let text = capped(column) ? truncate(Self.cellText(cell)) : Self.cellText(cell)
        line[c] = text
        widths[c] = max(widths[c], Self.width(text))
      }
      cells.append(line)
    }

    let shown = fit(columns: columns, widths: &widths)
    func pick<T>(_ all: [T]) -> [T] { shown.map { all[$0] } }
    let shownWidths = pick(widths)
    var out = ""
    appendLine(
      pick(columns).enumerated().map { truncate($1, to: shownWidths[$0]) }, widths: shownWidths,
      numeric: [Bool](repeating: false, count: shown.count), to: &out)
    appendLine(
      shownWidths.map { String(repeating: "-", count: $0) }, widths: shownWidths, numeric: pick(numeric), to: &out)
    for line in cells {
      appendLine(
        pick(line).enumerated().map { truncate($1 ?? "", to: shownWidths[$0]) }, widths: shownWidths,
        numeric: pick(numeric), to: &out)
    }
    let hidden = columns.indices.filter { !shown.contains($0) }.map { columns[$0] }
    return Fitted(text: out, hiddenColumns: hidden)
  }

  /// Narrows `widths` and picks the columns shown so that a line fits `maxLineWidth`: the widest
  /// columns are narrowed down to `readableWidth`, then non-key columns are left out from the
  /// right, then what is left is narrowed down to `minColumnWidth`.
  private func fit(columns: [String], widths: inout [Int]) -> [Int] {
    var shown = Array(columns.indices)
    guard let limit = maxLineWidth else { return shown }
    func lineWidth() -> Int {
      shown.reduce(0) { $0 + widths[$1] } + max(0, shown.count - 1) * Self.width(separator)
    }
    let narrowable = shown.filter { !keepWhole.contains(columns[$0]) }
    func narrow(downTo floor: Int) {
      while lineWidth() > limit {
        guard let widest = narrowable.filter(shown.contains).max(by: { widths[$0] < widths[$1] }),
          widths[widest] > floor
        else { return }
        widths[widest] -= 1
      }
    }
    narrow(downTo: Self.readableWidth)
    while lineWidth() > limit,
      let drop = shown.last(where: { !Self.isKey(columns[$0], index: $0) && !keepWhole.contains(columns[$0]) })
    {
      shown.removeAll { $0 == drop }
    }
    narrow(downTo: Self.minColumnWidth)
    while lineWidth() > limit, shown.count > 1 { shown.removeLast() }
    return shown
  }

  /// Columns are narrowed to this before any is left out.
  static let readableWidth = 10

  /// A column that names its row: the first, `id`, `name`, `key`, or one ending in `_id`.
  static func isKey(_ column: String, index: Int) -> Bool {
    index == 0 || ["id", "name", "key"].contains(column.lowercased()) || column.lowercased().hasSuffix("_id")
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

  private func truncate(_ text: String) -> String { truncate(text, to: maxCellWidth) }

  private func truncate(_ text: String, to width: Int) -> String {
    guard Self.width(text) > width else { return text }
    return TerminalCells.prefix(text, fitting: max(1, width - 1)) + "…"
  }

  static func width(_ text: String) -> Int { TerminalCells.width(text) }

  private static func isScalar(_ value: JSONValue) -> Bool {
    switch value {
    case .array, .object: false
    default: true
    }
  }

  /// A string as is (control characters escaped so rows stay on one line, and C1 and bidi
  /// controls so a cell cannot act on the terminal or reorder what follows),
  /// a non-empty list of scalars as its items joined by `, ` (a person reads `demo, prod`, not
  /// `["demo","prod"]`; `-o json` keeps the list), anything else as compact JSON.
  static func cellText(_ value: JSONValue) -> String {
    if case .array(let items) = value, !items.isEmpty, items.allSatisfy(isScalar) {
      return items.map(cellText).joined(separator: ", ")
    }
    guard case .string(let s) = value else { return value.compactJSON }
    func escaped(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.isBidiControl
    }
    guard s.unicodeScalars.contains(where: escaped) else { return s }
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out.append(contentsOf: "\\n".unicodeScalars)
      case "\r": out.append(contentsOf: "\\r".unicodeScalars)
      case "\t": out.append(contentsOf: "\\t".unicodeScalars)
      default:
        if escaped(scalar) {
          out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
        } else {
          out.append(scalar)
        }
      }
    }
    return String(out)
  }
}
